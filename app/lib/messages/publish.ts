// Publishing a post (/publish-post) and uploading images (/api/upload/image).
import { Common } from "./common";

export const publish = {
  category: "选择分类",
  anonymous: "蒙面发布",
  anonymousHint: "开启后匿名发布，其他同学看不到你的头像和昵称",
  contentPlaceholder: "分享你的新鲜事…",
  addImage: "添加图片",
  removeImage: "移除图片",
  imageAlt: "已上传的图片",
  publishButton: "发布",
  publishing: Common.publishing,
  contentRequired: "请输入帖子内容",
  categoryRequired: "请选择帖子分类",
  contentTooLong: "帖子内容不能超过500字",
  tooManyImages: "最多只能上传9张图片",
  imagesOnly: Common.imagesOnly,
  uploadInProgress: "图片正在上传中，请稍候",
  notLoggedIn: "用户未登录，请先登录",
  publishFailed: "发布失败: ",
  noPermission: Common.noPostPermission,
  needsNickname: "请先设置昵称后再发帖",
  network: Common.networkShort,
  uploading: "上传中",
  queued: "等待上传",
  uploaded: "上传成功",
  uploadFailed: "上传失败",
  // The upload storage failed (a full disk, object storage down): the post keeps what was typed.
  storageUnavailable: "图片暂时无法保存，请稍后重试",
  uploadTimeout: "上传超时",
  imageTooLarge: "图片不能超过 10 MB",
  imageUnreadable: "无法识别的图片，请换一张",
  imageNotYours: "图片已失效，请重新上传",
  tooManyPendingUploads: "待发布的图片太多了，请先发布或稍后再试",
  draftRestored: Common.draftRestored,
  // Without JavaScript, files chosen before a forced login cannot be kept: say so, with the count.
  imagesNotKept: (count: number) => `登录已失效，之前选择的 ${count} 张图片未能保留，请重新添加`,
} as const;
