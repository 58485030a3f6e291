// The page reader's tree: what the adapters rely on, including where it departs from a browser
// on purpose (the depth cap).
import { describe, expect, it } from "vitest";
import { MAX_DEPTH, MAX_FIELD_CHARS, attr, elements, firstElement, named, parseHtml, textOf, withAttr } from "./html.server";

describe("parseHtml and textOf", () => {
  it.each<[string, string, string]>([
    ["entities in text", "<p id=t>A&amp;B&nbsp;C &#x4E2D;&#25991; &lt;b&gt;</p>", "A&B C 中文 <b>"],
    ["tags as word breaks", "<p id=t><b>王</b><i>小明</i>(2023)</p>", "王 小明 (2023)"],
    ["scripts and styles say nothing", "<p id=t>a<script>alert('请先登录系统')</script><style>p{}</style>b</p>", "a b"],
    ["comments say nothing", "<p id=t>a<!-- b -->c</p>", "ac"],
    ["runs of white space", "<p id=t>\n  a \t\n b  </p>", "a b"],
  ])("%s", (_, html, text) => {
    expect(textOf(firstElement(parseHtml(html), withAttr("p", "id", "t")))).toBe(text);
  });

  it("decodes attributes, keeps the first of a repeated name, and knows a bare attribute", () => {
    const input = firstElement(parseHtml(`<input id="a&amp;b" ID="second" value='x"y' selected>`), named("input"))!;
    expect(attr(input, "id")).toBe("a&b");
    expect(attr(input, "value")).toBe('x"y');
    expect(attr(input, "selected")).toBe("");
    expect(attr(input, "missing")).toBeNull();
  });

  it("closes what HTML closes implicitly: options, cells, rows, paragraphs", () => {
    const page = parseHtml("<select id=s><option value=1>一<option value=2 selected>二</select><table><tr><td>a<td>b<tr><td>c</table><p>x<div>y</div>");
    expect(elements(page, named("option")).map((option) => [attr(option, "value"), textOf(option)])).toEqual([
      ["1", "一"],
      ["2", "二"],
    ]);
    expect(elements(page, named("tr")).map((row) => elements(row.children, named("td")).map((cell) => textOf(cell)))).toEqual([["a", "b"], ["c"]]);
    expect(firstElement(page, named("div"))!.parent).not.toBe(firstElement(page, named("p")));
  });

  it("ignores close tags of tags that are not open, and closes through the ones that are", () => {
    const page = parseHtml("<div id=a><span>x</i></b></div><div id=b>y</div>");
    expect(textOf(firstElement(page, withAttr("div", "id", "a")))).toBe("x");
    expect(firstElement(page, withAttr("div", "id", "b"))!.parent?.type).toBe("root");
  });

  it(`keeps at most ${MAX_DEPTH} levels: deeper tags become children of the deepest`, () => {
    const page = parseHtml(`${"<div>".repeat(MAX_DEPTH + 50)}<p id=deep>end</p>`);
    let depth = 0;
    for (let node = firstElement(page, withAttr("p", "id", "deep"))?.parent; node && node.type !== "root"; node = node.parent) depth++;
    expect(depth).toBe(MAX_DEPTH);
  });

  it(`cuts a field at ${MAX_FIELD_CHARS} characters`, () => {
    expect(textOf(parseHtml(`<p>${"课".repeat(5_000)}</p>`))).toHaveLength(MAX_FIELD_CHARS);
  });
});
