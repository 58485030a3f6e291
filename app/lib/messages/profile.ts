// /backpack/profile: the student's own name in the circle (one display name everywhere).
export const profile = {
  title: "个人资料",
  edit: "编辑资料",
  nickname: "昵称",
  nicknameHint: "2-20 个字，发帖、评论、邀请都显示这个名字",
  nicknameRequired: "请输入昵称",
  nicknameTooShort: "昵称至少 {min} 个字",
  nicknameTooLong: "昵称最多 {max} 个字",
  nicknameReserved: "昵称不能冒充官方或管理员",
  nicknameDigits: "昵称不能是一串数字（不要用手机号或学号当昵称）",
  nicknameSymbols: "昵称需要包含文字、字母或数字",
  save: "保存",
  saved: "已保存",
  realName: "实名",
  onlyYou: "仅自己可见",
  displayName: "大家看到的名字",
  setNicknameToComment: "设置昵称后即可评论",
} as const;
