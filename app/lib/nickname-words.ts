// The words a nickname may not contain, and the normal form nicknames are compared in. Pure (the
// migration that filled `users.nickname_key` uses it too). A maintained list: add a word where it
// belongs, in its plain form; the checks fold width, case, spaces, punctuation and invisible
// characters before comparing, so "傻 Ｂ", "S.B" and "管\u200b理员" are caught by "傻b", "sb" and "管理员".

/** Chinese profanity and insults, their common homophones, and vulgar sexual words. */
export const ABUSE_WORDS = [
  // 骂人的话与谐音
  "傻逼", "傻b", "傻比", "傻屄", "煞笔", "沙比", "傻叉", "傻x", "二逼", "装逼", "牛逼", "逗比",
  "操你", "草你", "艹你", "肏", "日你", "干你娘", "你妈的", "他妈的", "尼玛", "泥马", "草泥马",
  "妈了个", "妈卖批", "去你妈", "狗日", "狗娘", "王八蛋", "混蛋", "杂种", "畜生", "贱人", "贱货",
  "婊子", "骚货", "死全家", "全家死", "去死", "滚蛋", "智障", "脑残", "弱智", "白痴", "废物",
  "人渣", "垃圾人", "蠢货", "狗东西", "屌丝", "屌", "鸡巴", "屄", "逼样",
  // 色情
  "约炮", "嫖", "卖淫", "强奸", "做爱", "性交", "阴茎", "阴道", "裸聊",
  // English
  "fuck", "shit", "bitch", "asshole", "dick", "cunt", "bastard", "whore", "slut", "nigger", "motherfucker",
] as const;

/** Short pinyin and letter abbreviations: refused only as a whole run of letters ("sb", not "lisbon"). */
export const ABUSE_ABBREVIATIONS = ["sb", "cnm", "nmsl", "tmd", "nmb", "mlgb", "wcnm", "rnm", "wtf", "fk", "nm"] as const;

/** Names that would pass for the service, its staff, the school or the messenger's own labels. */
export const IMPERSONATION_WORDS = [
  "管理员", "官方", "客服", "校园帮", "运营", "系统", "版主", "站长", "工作人员", "小编",
  "教务", "辅导员", "校方", "微信团队", "腾讯", "微信用户", "匿名",
  "admin", "official", "support", "moderator", "system",
] as const;

const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;

/**
 * The form two nicknames are compared in (one name per campus): full width to half width and
 * compatibility forms folded (NFKC), lower case, no spaces and no invisible characters.
 */
export function nicknameKey(raw: string): string {
  return raw.normalize("NFKC").replace(INVISIBLE, "").replace(/\s+/gu, "").toLowerCase();
}

/** The key with only letters and digits left: what the word lists are matched against. */
function lettersOnly(raw: string) {
  return nicknameKey(raw).replace(/[^\p{L}\p{N}]/gu, "");
}

const fold = (words: readonly string[]) => words.map((word) => lettersOnly(word));
// Marked pure so that a page importing only a limit from lib/nickname ships none of the lists.
const ABUSE = /* @__PURE__ */ fold(ABUSE_WORDS);
const IMPERSONATION = /* @__PURE__ */ fold(IMPERSONATION_WORDS);
const ABBREVIATIONS = /* @__PURE__ */ new Set(/* @__PURE__ */ fold(ABUSE_ABBREVIATIONS));

/** Whether a nickname holds an abusive word (after folding width, case, spaces and punctuation). */
export function hasAbuse(raw: string): boolean {
  const letters = lettersOnly(raw);
  if (ABUSE.some((word) => letters.includes(word))) return true;
  // Runs of Latin letters (split by digits and other scripts; punctuation is gone) for the abbreviations.
  return (letters.match(/[a-z]+/g) ?? []).some((run) => ABBREVIATIONS.has(run));
}

/** Whether a nickname would pass for the service, its staff or the school. */
export function impersonates(raw: string): boolean {
  const letters = lettersOnly(raw);
  return IMPERSONATION.some((word) => letters.includes(word));
}
