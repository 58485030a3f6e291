// POST /info/schedule_init { school_code } — the product rules' school config: current_semester,
// school_start_date (Monday of week 1), semester_list (code → label) and week_list (1–26).
// Public like the school list; it tells what the school's system last said, else the default.
import type { ActionFunctionArgs } from "@remix-run/node";
import { login as loginMessages } from "~/lib/messages/login";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { weekLabel } from "~/lib/schedule";
import { MAX_WEEK, MIN_WEEK } from "~/lib/weeks";
import { knownTermInfo } from "~/server/schedule/timetable.server";

const msg = { login: loginMessages, wechat: wechatMessages };

async function schoolCodeOf(request: Request) {
  const type = request.headers.get("Content-Type") ?? "";
  try {
    const value = type.includes("application/json")
      ? ((await request.json()) as Record<string, unknown> | null)?.school_code
      : (await request.formData()).get("school_code");
    return typeof value === "string" ? value.trim().slice(0, 64) : "";
  } catch {
    return "";
  }
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const code = await schoolCodeOf(request);
  if (!code) return Response.json({ success: false, message: msg.login.selectSchool }, { status: 400 });
  const known = await knownTermInfo(code);
  if (!known) return Response.json({ success: false, message: msg.login.unknownSchool }, { status: 404 });
  const { info, source } = known;
  return Response.json({
    success: true,
    data: {
      school_code: code,
      current_semester: info.currentTerm,
      school_start_date: info.week1Start,
      semester_list: info.terms.map((term) => ({ value: term.code, label: term.label })),
      week_list: Array.from({ length: MAX_WEEK - MIN_WEEK + 1 }, (_, i) => ({ value: MIN_WEEK + i, label: weekLabel(MIN_WEEK + i) })),
      fallback: source === "fallback",
    },
  });
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
