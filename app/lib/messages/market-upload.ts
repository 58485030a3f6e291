// What the screenshot upload says in the browser: loaded with the upload code, on first use.
import { Common } from "./common";

export const marketUpload = {
  badFormat: "识别结果格式异常，请重试或手动添加",
  network: Common.network,
  noCode: "智能识别未识别出取件码，请手动填写",
  tooManyImages: "最多只能上传3张图片",
  imageTooLarge: "图片大小不能超过8MB",
  notImage: "请选择图片文件",
  uploadFailed: "图片上传失败，请重试",
  // One line per screenshot while it goes: shrink, send, wait its turn, read.
  stepShrinking: "正在压缩",
  stepUploading: "上传中 {percent}%",
  stepWaiting: "排队中，前面还有 {n} 张",
  stepWaitingFor: "排队中，前面还有 {n} 张，约 {seconds} 秒",
  stepReading: "正在识别",
  stepFound: Common.parcelsFound,
  stepNone: "没有识别出取件码",
  stepRetry: "人有点多，{seconds} 秒后自动重试",
  busy: "现在识别截图的人有点多，请稍后再试，也可以直接粘贴短信文字",
} as const;
