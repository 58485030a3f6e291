// Mutual sign-in help: a paid request published as a forum post in category 3 (the circle owns
// the posts table; createPost is its door). The post starts 'ongoing'; its author marks it
// 'completed' from the post page (the circle's markPostCompleted).
import { MUTUAL_HELP_CATEGORY_ID, composeHelpContent, helpTimeText, type CourseKind, type HelpCourse } from "~/lib/mutual-help";
import * as msg from "~/lib/messages";
import { classTime } from "~/lib/schedule";
import { fillTemplate } from "~/lib/template";
import type { User } from "../auth/session.server";
import { ForumError, createPost } from "../forum/posts.server";
import { log } from "../log.server";

/** How a helper reaches the student: the profile's phone, else the messenger nickname. */
export function contactOf(user: Pick<User, "phone" | "wechat_nickname" | "nickname">) {
  return user.phone?.trim() || user.wechat_nickname?.trim() || user.nickname?.trim() || "";
}

/** Wall-clock time of the periods ('1-2' → 08:10–09:40), when the query carried them. */
export function clockOfPeriod(period: string) {
  const match = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(period);
  if (!match) return undefined;
  const start = Number(match[1]);
  return classTime({ startPeriod: start, endPeriod: match[2] ? Number(match[2]) : start });
}

export type PublishResult = { ok: true; id: number } | { ok: false; message: string };

/** Publishes the request; a refusal of the forum (a banned author) comes back as its message. */
export async function publishMutualHelp(user: User, input: { course: HelpCourse; kind: CourseKind; note: string }): Promise<PublishResult> {
  const content = composeHelpContent({
    course: input.course,
    time: helpTimeText(input.course, clockOfPeriod(input.course.period)),
    kind: input.kind,
    contact: contactOf(user),
    note: input.note,
  });
  try {
    const post = await createPost({
      userId: user.id,
      categoryId: MUTUAL_HELP_CATEGORY_ID,
      content,
      title: input.course.courseName,
      isAnonymous: false,
      status: "ongoing",
      images: [],
    });
    return { ok: true, id: post.id };
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    log("warn", "mutual-help-refused", { userId: user.id, code: error.code });
    return { ok: false, message: fillTemplate(msg.mutualHelp.publishFailed, { reason: error.code === "banned" ? msg.mutualHelp.banned : msg.mutualHelp.retryLater }) };
  }
}
