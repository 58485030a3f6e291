// POST /api/wechat/auto-login — the product rules' sign-in of a returning messenger user whose student
// account is bound. With our cookie sessions the browser is already signed in when this holds;
// the answer tells the page who it is. Never a password or a token (the product rules' answer had both).
import type { ActionFunctionArgs } from "@remix-run/node";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { getUser, hasStudentAccount } from "~/server/auth/session.server";
import { db } from "~/server/db/db.server";

const msg = { wechat: wechatMessages };

const noStore = { "Cache-Control": "no-store" };

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405, headers: { ...noStore, Allow: "POST" } });
  }
  const user = await getUser(request);
  if (!user?.openid) {
    return Response.json({ success: false, message: msg.wechat.authLoginRequired }, { status: 401, headers: noStore });
  }
  if (!hasStudentAccount(user)) {
    return Response.json({ success: false, message: msg.wechat.notBound }, { status: 401, headers: noStore });
  }
  const school = await db().selectFrom("schools").select("name").where("code", "=", user.school_code).executeTakeFirst();
  return Response.json(
    {
      success: true,
      data: {
        student_id: user.student_id,
        user_name: user.real_name ?? user.nickname ?? "",
        school_name: school?.name ?? user.school_code,
      },
    },
    { headers: noStore },
  );
}

export function loader() {
  return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405, headers: { ...noStore, Allow: "POST" } });
}
