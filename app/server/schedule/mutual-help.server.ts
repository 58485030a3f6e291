// Mutual sign-in help: a paid request published as a forum post in category 3 (the circle owns
// the posts table; createPost is its door). The post starts 'ongoing'; its author marks it
// 'completed' from the post page (the circle's markPostCompleted). The class comes from the
// student's own timetable (term, week and the course's place in it), never from free text, and the
// contacts live beside the post, not in its text: 我来帮忙 swaps them through both inboxes.
import {
  MUTUAL_HELP_CATEGORY_ID,
  composeHelpContent,
  helpTimeText,
  type CourseKind,
  type HelpCourse,
  type HelpCourseRef,
} from "~/lib/mutual-help";
import { helpClassKey, occurrenceOf, upcomingOccurrences, type HelpOccurrence } from "~/lib/help-dates";
import { classTime, meetsInWeek, periodText } from "~/lib/schedule";
import { defaultWeek1Start } from "~/lib/term";
import { formatWeeks } from "~/lib/weeks";
import type { User } from "../auth/session.server";
import { db, now as dbNow } from "../db/db.server";
import { ForumError, createPost, publicName } from "../forum/posts.server";
import { log } from "../log.server";
import { notify } from "../notify/notify.server";
import { loadTermInfo, loadTimetable } from "./timetable.server";

export type HelpClass = {
  course: HelpCourse;
  time: string;
  /** Which class (the same every week it meets) and this meeting of it. */
  classKey: string;
  occurrence: HelpOccurrence;
  /** The class's coming meetings, soonest first (what the form offers). */
  upcoming: (HelpOccurrence & { time: string })[];
};

/** The class a reference names in the student's own timetable, or null when it has no such class that week. */
export async function helpClassOf(user: User, ref: HelpCourseRef, options: { returnTo?: string; now?: Date } = {}): Promise<HelpClass | null> {
  const { info } = await loadTermInfo(user, options);
  const week1Start = ref.term === info.currentTerm ? info.week1Start : defaultWeek1Start(ref.term);
  if (!week1Start) return null;
  const load = await loadTimetable(user, ref.term, options);
  const entry = load.timetable?.courses[ref.course];
  if (!entry || entry.weekday < 1 || entry.weekday > 7 || !meetsInWeek(entry, ref.week)) return null;
  const occurrence = occurrenceOf(entry, week1Start, ref.week);
  const course: HelpCourse = {
    courseName: entry.name,
    location: entry.location,
    teacher: entry.teacher,
    weeks: formatWeeks(entry.weeks) || entry.weeksText,
    period: periodText(entry),
    date: occurrence.date,
    dayOfWeek: String(entry.weekday),
  };
  const clock = classTime(entry);
  const upcoming = upcomingOccurrences(entry, week1Start, options.now ?? new Date()).map((next) => ({
    ...next,
    time: helpTimeText({ date: next.date, dayOfWeek: String(entry.weekday) }, clock),
  }));
  return { course, time: helpTimeText(course, clock), classKey: helpClassKey(ref.term, entry), occurrence, upcoming };
}

/** Why a meeting cannot be asked for: it has begun (or is over), or this student asked for it already. */
export type HelpDateProblem = "past" | "duplicate";

export async function helpDateProblem(user: User, help: HelpClass, now = new Date()): Promise<{ problem: HelpDateProblem; postId?: number } | null> {
  if (Date.parse(help.occurrence.startsAt) <= now.getTime()) return { problem: "past" };
  const existing = await db()
    .selectFrom("mutual_help_requests")
    .select("post_id")
    .where("user_id", "=", user.id)
    .where("class_key", "=", help.classKey)
    .where("class_date", "=", help.occurrence.date)
    .executeTakeFirst();
  return existing ? { problem: "duplicate", postId: existing.post_id } : null;
}

/** The contact the student gave last (a request or an offer), to fill the field again. */
export async function lastContactOf(userId: number): Promise<string> {
  const [request, offer] = await Promise.all([
    db().selectFrom("mutual_help_requests").select(["contact", "created_at"]).where("user_id", "=", userId).where("contact", "is not", null).orderBy("created_at", "desc").limit(1).executeTakeFirst(),
    db().selectFrom("mutual_help_offers").select(["helper_contact as contact", "created_at"]).where("helper_user_id", "=", userId).orderBy("created_at", "desc").limit(1).executeTakeFirst(),
  ]);
  const latest = [request, offer].filter((row) => row?.contact).sort((a, b) => (a!.created_at < b!.created_at ? 1 : -1))[0];
  return latest?.contact ?? "";
}

/** Why a request was not published: the same class and date already asked for, an author the forum bans, or another refusal of the forum. */
export type PublishRefusal = "duplicate" | "banned" | "refused";
export type PublishResult = { ok: true; id: number } | { ok: false; reason: PublishRefusal };

/** Publishes the request; a refusal of the forum comes back as its reason ('banned' for a banned author). */
export async function publishMutualHelp(user: User, input: { help: HelpClass; kind: CourseKind; note: string; contact: string | null }): Promise<PublishResult> {
  const content = composeHelpContent({ course: input.help.course, time: input.help.time, kind: input.kind, note: input.note, hasContact: Boolean(input.contact) });
  try {
    const post = await createPost({
      userId: user.id,
      categoryId: MUTUAL_HELP_CATEGORY_ID,
      content,
      title: input.help.course.courseName,
      isAnonymous: false,
      status: "ongoing",
      images: [],
    });
    const recorded = await db()
      .insertInto("mutual_help_requests")
      .values({
        post_id: post.id,
        user_id: user.id,
        contact: input.contact,
        created_at: dbNow(),
        class_key: input.help.classKey,
        class_date: input.help.occurrence.date,
        class_starts_at: input.help.occurrence.startsAt,
      })
      .onConflict((oc) => oc.columns(["user_id", "class_key", "class_date"]).doNothing())
      .returning("post_id")
      .executeTakeFirst();
    if (!recorded) {
      // The same class and date twice at once (two taps, two tabs): the first stands.
      await db().deleteFrom("posts").where("id", "=", post.id).execute();
      return { ok: false, reason: "duplicate" };
    }
    return { ok: true, id: post.id };
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    log("warn", "mutual-help-refused", { userId: user.id, code: error.code });
    return { ok: false, reason: error.code === "banned" ? "banned" : "refused" };
  }
}

export type HelpView = {
  postId: number;
  course: string;
  status: string | null;
  isOwner: boolean;
  /** The requester's contact: for logged-in students (this view needs a student session). */
  requesterContact: string | null;
  /** When the class starts (null on requests from before it was kept): no offers once it has begun. */
  classStartsAt: string | null;
  /** The viewer's own offer, when they made one. */
  myOffer: { contact: string } | null;
  /** The offers, for the requester only. */
  offers: { name: string; contact: string; at: string }[];
};

/** What /post/:id/help shows to this student, or null when the post is not a live mutual-help request. */
export async function helpView(postId: number, viewer: User): Promise<HelpView | null> {
  // Every mutual-help post takes offers; one published before contacts existed has no request row.
  const row = await db()
    .selectFrom("posts as p")
    .leftJoin("mutual_help_requests as r", "r.post_id", "p.id")
    .select(["p.id as post_id", "p.user_id", "r.contact", "r.class_starts_at", "p.title", "p.status"])
    .where("p.id", "=", postId)
    .where("p.category_id", "=", MUTUAL_HELP_CATEGORY_ID)
    .executeTakeFirst();
  if (!row) return null;
  const isOwner = row.user_id === viewer.id;
  const offers = isOwner
    ? await db()
        .selectFrom("mutual_help_offers as o")
        .innerJoin("users as u", "u.id", "o.helper_user_id")
        .select(["u.nickname", "u.wechat_nickname", "o.helper_contact", "o.created_at"])
        .where("o.post_id", "=", postId)
        .orderBy("o.id", "asc")
        .limit(50)
        .execute()
    : [];
  const mine = isOwner
    ? null
    : await db().selectFrom("mutual_help_offers").select("helper_contact").where("post_id", "=", postId).where("helper_user_id", "=", viewer.id).executeTakeFirst();
  return {
    postId,
    course: row.title ?? "",
    status: row.status,
    isOwner,
    requesterContact: row.contact ?? null,
    classStartsAt: row.class_starts_at ?? null,
    myOffer: mine ? { contact: mine.helper_contact } : null,
    offers: offers.map((offer) => ({ name: publicName(offer), contact: offer.helper_contact, at: offer.created_at })),
  };
}

/** Why an offer was not taken: no mutual-help request, the helper's own, completed, its class begun, or offered already. */
export type OfferRefusal = "not_a_request" | "own_request" | "closed" | "class_begun" | "already_offered";
export type OfferResult = { ok: true } | { ok: false; reason: OfferRefusal };

/**
 * 我来帮忙: records the offer once per helper and post, then tells both sides in their inbox
 * (and the requester by a subscribe message when they agreed to one) with the other's contact.
 */
export async function offerHelp(helper: User, postId: number, contact: string): Promise<OfferResult> {
  const view = await helpView(postId, helper);
  if (!view) return { ok: false, reason: "not_a_request" };
  if (view.isOwner) return { ok: false, reason: "own_request" };
  if (view.status !== "ongoing") return { ok: false, reason: "closed" };
  if (view.classStartsAt && Date.parse(view.classStartsAt) <= Date.now()) return { ok: false, reason: "class_begun" };
  if (view.myOffer) return { ok: false, reason: "already_offered" };
  const inserted = await db()
    .insertInto("mutual_help_offers")
    .values({ post_id: postId, helper_user_id: helper.id, helper_contact: contact, created_at: dbNow() })
    .onConflict((oc) => oc.columns(["post_id", "helper_user_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return { ok: false, reason: "already_offered" };
  const request = await db().selectFrom("posts").select("user_id").where("id", "=", postId).executeTakeFirstOrThrow();
  const helperName = publicName(helper);
  await notify({
    kind: "help_offered",
    recipientUserId: request.user_id,
    data: { postId, actorUserId: helper.id, actorName: helperName, course: view.course, contact },
  });
  await notify({
    kind: "help_contact",
    recipientUserId: helper.id,
    data: { postId, actorUserId: request.user_id, actorName: "", course: view.course, contact: view.requesterContact ?? "" },
  });
  log("info", "mutual-help-offer", { postId, offerId: inserted.id });
  return { ok: true };
}
