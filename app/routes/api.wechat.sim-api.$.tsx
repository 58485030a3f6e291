// The simulated messenger API (development only: no app id, not production; 404 otherwise):
// /api/wechat/sim-api/sns/oauth2/access_token and /api/wechat/sim-api/sns/userinfo answer like
// api.weixin.qq.com, so the real OAuth client runs against it over loopback.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { simulatedAccessToken, simulatedUserInfo } from "~/server/auth/messenger-sim.server";
import { isSimulatedMessenger } from "~/server/auth/messenger.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  if (!isSimulatedMessenger()) return new Response("Not Found", { status: 404 });
  const query = new URL(request.url).searchParams;
  const headers = { "Cache-Control": "no-store" };
  switch (params["*"]) {
    case "sns/oauth2/access_token":
      return Response.json(simulatedAccessToken(query), { headers });
    case "sns/userinfo":
      return Response.json(simulatedUserInfo(query), { headers });
    default:
      return Response.json({ errcode: 40066, errmsg: "invalid url" }, { status: 404, headers });
  }
}
