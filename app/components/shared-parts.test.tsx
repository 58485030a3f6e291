import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FailedCard } from "./FailedCard";
import { IconList } from "./IconList";
import { LabelledField } from "./LabelledField";

// The markup the hand-written copies rendered before each became one component: pages must not change.
describe("LabelledField (the login forms, the address form)", () => {
  it("label, control, first error", () => {
    const html = renderToStaticMarkup(
      <LabelledField field={{ id: "a-name", errorId: "a-name-error", errors: ["必填", "太长"] }} label="收件人">
        <input id="a-name" />
      </LabelledField>,
    );
    expect(html).toBe('<div><label for="a-name" class="field-label">收件人</label><input id="a-name"/><p id="a-name-error" class="field-error">必填</p></div>');
  });
  it("no error, no message", () => {
    expect(renderToStaticMarkup(<LabelledField field={{ id: "x" }} label="手机号" children={null} />)).toBe('<div><label for="x" class="field-label">手机号</label></div>');
  });
});

describe("IconList (a feature's points, the invite milestones)", () => {
  it("one item a line, each after the icon, keyed by its text", () => {
    const html = renderToStaticMarkup(<IconList lines={["送货上门", "准时"]} icon="check" className="space-y-1.5 text-sm" iconClassName="text-green-600" />);
    expect(html.startsWith('<ul class="space-y-1.5 text-sm"><li class="flex items-center gap-2"><svg')).toBe(true);
    expect(html.match(/<li /g)).toHaveLength(2);
    expect(html).toContain('class="h-4 w-4 shrink-0 text-green-600"');
    expect(html.endsWith("准时</li></ul>")).toBe(true);
  });
});

describe("FailedCard (the circle's and the publish page's error boundaries)", () => {
  it("what failed and why, then a plain link", () => {
    expect(renderToStaticMarkup(<FailedCard failed="加载失败：" reason="503" href="/circle" action="返回最新" />)).toBe(
      '<section role="alert" class="card space-y-3 py-10 text-center"><p class="text-sm text-red-600">加载失败：503</p><a href="/circle" class="btn-primary">返回最新</a></section>',
    );
  });
});
