// One home for every message: a Chinese string is written once across the catalogues
// (app/lib/messages/*.ts); a second catalogue that shows the same words with the same meaning
// points at the first (shared words live in messages/common.ts). Read from the source, so a copy
// is caught even where two keys would hold equal values on purpose.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES, POST_MAX_IMAGES } from "./forum";
import { market } from "./messages/market";
import { marketUpload } from "./messages/market-upload";
import { profile } from "./messages/profile";
import { publish } from "./messages/publish";
import { MAX_IMAGE_BYTES, MAX_IMAGES } from "./screenshot-recognition";

const DIR = join(__dirname, "messages");
const HAN = /[\u4e00-\u9fff]/;

/**
 * Strings that may be written twice because they mean different things and could change apart.
 * Each entry names its reason. Empty today: every repeated string had one meaning.
 */
const ALLOWED_TWICE: Record<string, string> = {};

type Definition = { text: string; where: string };

/** Every Chinese string literal and template in a catalogue file. */
function definitions(file: string): Definition[] {
  const path = join(DIR, file);
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Definition[] = [];
  const visit = (node: ts.Node) => {
    let text: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) {
      // A template counts with its holes' source: `最多${MAX_IMAGES}张` and `最多${POST_MAX_IMAGES}张` differ.
      text = node.head.text + node.templateSpans.map((span) => `\${${span.expression.getText(source)}}${span.literal.text}`).join("");
    }
    if (text !== null) {
      if (HAN.test(text)) found.push({ text, where: `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}` });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = readdirSync(DIR).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));

function repeated(defs: Definition[]) {
  const byText = new Map<string, string[]>();
  for (const { text, where } of defs) byText.set(text, [...(byText.get(text) ?? []), where]);
  return [...byText].filter(([text, places]) => places.length > 1 && !(text in ALLOWED_TWICE)).map(([text, places]) => `${text} — ${places.join(", ")}`);
}

describe("the message catalogues", () => {
  it("are all read (a catalogue file that holds no Chinese string is a mistake in this test)", () => {
    expect(files.length).toBeGreaterThan(30);
    expect(definitions("common.ts").length).toBeGreaterThan(100);
  });

  it("define each Chinese string once", () => {
    expect(repeated(files.flatMap(definitions))).toEqual([]);
  });

  it("allow a repeat only with a reason, and only while it is still repeated", () => {
    const all = files.flatMap(definitions).map((d) => d.text);
    for (const [text, reason] of Object.entries(ALLOWED_TWICE)) {
      expect(reason.length, text).toBeGreaterThan(10);
      expect(all.filter((t) => t === text).length, text).toBeGreaterThan(1);
    }
  });

  it("catch a copy (the check itself works)", () => {
    const copy = [
      { text: "返回", where: "a.ts:1" },
      { text: "返回", where: "b.ts:9" },
      { text: "保存", where: "a.ts:2" },
    ];
    expect(repeated(copy)).toEqual(["返回 — a.ts:1, b.ts:9"]);
  });
});

// A message that states a limit says the limit's own value. The strings stay literals (a template
// built from the constant would tie each catalogue's chunk to the limit's module in the browser
// build); these rows tie them to the one home of each limit instead.
describe("messages that state a limit", () => {
  const mb = (bytes: number) => bytes / (1024 * 1024);
  it.each([
    [market.express.imagesHint, `最多 ${MAX_IMAGES} 张，每张不超过 ${mb(MAX_IMAGE_BYTES)}MB`],
    [marketUpload.tooManyImages, `最多只能上传${MAX_IMAGES}张图片`],
    [marketUpload.imageTooLarge, `图片大小不能超过${mb(MAX_IMAGE_BYTES)}MB`],
    [publish.tooManyImages, `最多只能上传${POST_MAX_IMAGES}张图片`],
    [publish.imageTooLarge, `图片不能超过 ${mb(IMAGE_MAX_BYTES)} MB`],
    [profile.avatarTooLarge, `图片不能超过 ${mb(IMAGE_MAX_BYTES)}MB`],
  ])("%s", (message, fromLimit) => {
    expect(message).toBe(fromLimit);
  });
});
