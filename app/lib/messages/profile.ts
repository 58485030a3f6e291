// /backpack/profile: the student's own name in the circle (one display name everywhere).
import * as common from "./common";
import { IMAGE_MAX_BYTES } from "../forum";

export const profile = {
  title: common.profile,
  edit: "编辑资料",
  nickname: common.nickname,
  nicknameHint: "2-20 个字，发帖、评论、邀请都显示这个名字",
  nicknameRequired: common.nicknameRequired,
  nicknameTooShort: "昵称至少 {min} 个字",
  nicknameTooLong: "昵称最多 {max} 个字",
  nicknameReserved: "昵称不能冒充官方或管理员",
  nicknameDigits: "昵称不能是一串数字（不要用手机号或学号当昵称）",
  nicknameSymbols: "昵称需要包含文字、字母或数字",
  save: common.save,
  saved: common.saved,
  realName: "实名",
  onlyYou: "仅自己可见",
  displayName: "大家看到的名字",
  setNicknameToComment: "设置昵称后即可评论",
  avatar: "头像",
  avatarHint: "JPG、PNG、GIF 或 WebP，不超过 10MB；会裁成正方形，照片里的位置等信息会被去掉",
  chooseAvatar: "选择图片",
  uploadAvatar: "上传头像",
  avatarSaved: "头像已更新",
  avatarRequired: "请选择一张图片",
  avatarNotImage: common.imagesOnly,
  avatarTooLarge: `图片不能超过 ${IMAGE_MAX_BYTES / (1024 * 1024)}MB`,
  avatarFailed: "头像保存失败，请稍后重试",
} as const;
