// What each screenshot's progress line says, step by step (the words come from the catalogue).
import { describe, expect, it } from "vitest";
import { refuseFiles, stepText, type UploadStep } from "./upload-images";
import type { QueuedImage } from "~/lib/screenshot-recognition";

const waiting = (ahead: number): QueuedImage => ({ uploadId: "a", state: "waiting", ahead });
const reading: QueuedImage = { uploadId: "a", state: "reading", ahead: 0 };

describe("an image's progress line", () => {
  const cases: [string, UploadStep, QueuedImage | undefined, string][] = [
    ["shrinking", { kind: "shrinking" }, undefined, "正在压缩"],
    ["uploading", { kind: "uploading", percent: 42 }, undefined, "上传中 42%"],
    ["sent, place not known yet", { kind: "queued" }, undefined, "正在识别"],
    ["waiting behind two", { kind: "queued" }, waiting(2), "排队中，前面还有 2 张"],
    ["waiting behind four, with the wait", { kind: "queued" }, { ...waiting(4), waitSeconds: 3 }, "排队中，前面还有 4 张，约 3 秒"],
    ["first in line", { kind: "queued" }, waiting(0), "正在识别"],
    ["being read", { kind: "queued" }, reading, "正在识别"],
    ["found two", { kind: "found", count: 2 }, undefined, "识别到 2 个快递"],
    ["found none", { kind: "found", count: 0 }, undefined, "没有识别出取件码"],
    [
      "server busy, retrying",
      { kind: "retrying", seconds: 4, message: "现在识别截图的人有点多，请 4 秒后再试，也可以直接粘贴短信文字" },
      undefined,
      "现在识别截图的人有点多，请 4 秒后再试，也可以直接粘贴短信文字（人有点多，4 秒后自动重试）",
    ],
    ["failed", { kind: "failed", message: "网络错误，请检查网络连接后重试" }, undefined, "网络错误，请检查网络连接后重试"],
  ];
  it.each(cases)("%s", (_name, step, place, expected) => {
    expect(stepText(step, place)).toBe(expected);
  });
});

describe("files refused before sending", () => {
  const file = (type: string, size: number) => ({ type, size }) as File;
  it.each([
    ["a fourth image", [file("image/png", 10)], 3, "最多只能上传3张图片"],
    ["not an image", [file("application/pdf", 10)], 0, "请选择图片文件"],
    ["over 8 MB", [file("image/jpeg", 8 * 1024 * 1024 + 1)], 0, "图片大小不能超过8MB"],
    ["three fine images", [file("image/png", 10), file("image/webp", 10), file("image/jpeg", 10)], 0, null],
  ] as const)("%s", (_name, files, shown, expected) => {
    expect(refuseFiles([...files], shown)).toBe(expected);
  });
});
