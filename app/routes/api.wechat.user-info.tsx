// GET or POST /api/wechat/user-info — the signed-in browser's messenger profile (the product rules' call
// took the OAuth code; here the code is exchanged by /api/wechat/callback, never by the page).
// Guarded by requireMessengerUser: 401 JSON without a messenger identity.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { hasStudentAccount } from "~/server/auth/session.server";
import { requireMessengerUser } from "~/server/http/guards.server";

async function answer(request: Request) {
  const user = await requireMessengerUser(request);
  return Response.json(
    {
      success: true,
      data: {
        nickname: user.nickname,
        avatar: user.avatar_url ?? user.wechat_avatar,
        wechat_nickname: user.wechat_nickname,
        sex: user.wechat_sex,
        city: user.wechat_city,
        province: user.wechat_province,
        country: user.wechat_country,
        authorized_at: user.wechat_authorized_at,
        student_bound: hasStudentAccount(user),
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export function loader({ request }: LoaderFunctionArgs) {
  return answer(request);
}

export function action({ request }: ActionFunctionArgs) {
  return answer(request);
}
