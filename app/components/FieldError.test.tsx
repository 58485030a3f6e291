import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FieldError, FormError } from "./FieldError";

// The markup each hand-written copy rendered before it became a FieldError: pages must not change.
describe("FieldError", () => {
  it.each([
    ["a conform field", <FieldError field={{ errorId: "f-name-error", errors: ["必填", "太长"] }} />, '<p id="f-name-error" class="field-error">必填</p>'],
    ["announced", <FieldError field={{ errorId: "f-name-error", errors: ["必填"] }} alert />, '<p id="f-name-error" role="alert" class="field-error">必填</p>'],
    ["an extra class", <FieldError field={{ errorId: "c-error", errors: ["必填"] }} alert className="mt-0" />, '<p id="c-error" role="alert" class="field-error mt-0">必填</p>'],
    ["every error joined", <FieldError field={{ errorId: "r-error", errors: ["一", "二"] }} alert all />, '<p id="r-error" role="alert" class="field-error">一；二</p>'],
    ["inside a label", <FieldError field={{ errorId: "refund-reason-error", errors: ["必填"] }} as="span" />, '<span id="refund-reason-error" class="field-error block">必填</span>'],
    ["a message without an id", <FieldError field={{ errors: ["已停用"] }} alert />, '<p role="alert" class="field-error">已停用</p>'],
    ["no errors", <FieldError field={{ errorId: "f-error" }} alert />, ""],
    ["an empty list", <FieldError field={{ errorId: "f-error", errors: [] }} />, ""],
  ])("%s", (_, element, html) => {
    expect(renderToStaticMarkup(element)).toBe(html);
  });
});

// The form-level line every form's hand-written copy rendered: the same markup, once.
describe("FormError", () => {
  it.each([
    ["with the form's error id", <FormError id="f-form-error" message="请先登录" />, '<p id="f-form-error" role="alert" class="form-error">请先登录</p>'],
    ["a page's refusal without an id", <FormError message="操作失败" />, '<p role="alert" class="form-error">操作失败</p>'],
    ["spacing of its own", <FormError id="a-error" message="请选择地址" className="mb-2" />, '<p id="a-error" role="alert" class="form-error mb-2">请选择地址</p>'],
    ["no message", <FormError id="f-form-error" message={undefined} />, ""],
    ["an empty message", <FormError message="" />, ""],
  ])("%s", (_, element, html) => {
    expect(renderToStaticMarkup(element)).toBe(html);
  });
});
