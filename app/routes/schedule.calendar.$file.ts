import type { LoaderFunctionArgs } from "@remix-run/node";
import { calendarFeed } from "~/server/schedule/calendar.server";
import { userByCalendarToken } from "~/server/schedule/settings.server";

// /schedule/calendar/<token>.ics: the student's classes of the current term for phone calendars.
// No login (a calendar app has none): the secret token is the check (app/lib/access.ts), and an
// unknown or reset token is a plain 404 that says nothing about which tokens exist.
export async function loader({ params }: LoaderFunctionArgs) {
  const match = /^(.+)\.ics$/.exec(params.file ?? "");
  const user = match ? await userByCalendarToken(match[1]) : null;
  if (!user) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(await calendarFeed(user), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="timetable.ics"',
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
      "Referrer-Policy": "no-referrer",
    },
  });
}
