import type { User } from "../auth/session.server";
import { requireMessengerUser } from "./guards.server";

// The JSON answers of the product rules' call paths (docs/product-rules.md, "Call paths") that
// our pages' JavaScript or a client may call: never cached, `{ success: false, message }` when
// refused. The routes write the messages; this only shapes the answer.

const NO_STORE = { "Cache-Control": "no-store" };

export function apiAnswer(body: unknown, status = 200) {
  return Response.json(body, { status, headers: NO_STORE });
}

/** The session's messenger user; a body that names another openid is refused (thrown) with `forbidden`. */
export async function requireOwnOpenid(request: Request, openid: string | undefined, forbidden: string): Promise<User> {
  const user = await requireMessengerUser(request);
  if (openid && openid !== user.openid) throw apiAnswer({ success: false, message: forbidden }, 403);
  return user;
}

/** 405 for a method the call path does not take (the message from the catalogue). */
export function methodNotAllowed(message: string) {
  return apiAnswer({ success: false, message }, 405);
}
