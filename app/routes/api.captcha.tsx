import type { ActionFunctionArgs } from "@remix-run/node";
import { tooManyMessage } from "~/lib/login-throttle";
import { login as loginMessages } from "~/lib/messages/login";
import { issueCaptcha } from "~/server/auth/captcha.server";

// A fresh captcha for the login page's "tap to refresh". Stateless (nothing is stored), but
// drawing costs CPU, so each client address may draw a bounded number per minute.
export async function action({ context }: ActionFunctionArgs) {
  const issued = await issueCaptcha(context.clientIp ?? "unknown");
  if (!issued.ok) {
    return Response.json(
      { success: false, message: tooManyMessage(loginMessages.tooManyAttempts, issued.retryAfterSeconds * 1000) },
      { status: 429, headers: { "Retry-After": String(issued.retryAfterSeconds), "Cache-Control": "no-store" } },
    );
  }
  return Response.json(issued.captcha, { headers: { "Cache-Control": "no-store" } });
}
