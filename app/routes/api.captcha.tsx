import { createCaptcha } from "~/server/auth/captcha.server";

// A fresh captcha for the login page's "tap to refresh" (POST: it creates a row).
export async function action() {
  return Response.json(await createCaptcha(), { headers: { "Cache-Control": "no-store" } });
}
