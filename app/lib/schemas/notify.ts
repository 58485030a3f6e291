import * as z from "zod";
import { SUBSCRIBE_KEYS } from "../notify";

/** 'Later' on the subscribe widget (POST /api/wechat/subscribe). */
export const SubscribeLaterSchema = z.object({
  intent: z.literal("later"),
  template: z.enum(SUBSCRIBE_KEYS),
  returnTo: z.string().max(2000).optional(),
});

/** The simulated confirm page's answer (development only). */
export const SimulatedSubscribeSchema = z.object({
  intent: z.enum(["confirm", "cancel"]),
});

/** POST /api/wechat/jsapi-config: the page's full URL (http or https, no more than 2000 characters). */
export const JsapiConfigSchema = z.object({
  url: z.string().trim().min(1).max(2000).regex(/^https?:\/\//i),
});

/** 'Mark all read' on /backpack/inbox. */
export const InboxSchema = z.object({ intent: z.literal("read-all") });
