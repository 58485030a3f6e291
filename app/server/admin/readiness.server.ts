// Which of the service's outside capabilities are off: payment (no pay merchant),
// template messages (no template ids) and the academic system (no enabled real school). One
// check, used twice: logged as one warning line each at server start, and shown as a banner on
// the admin pages (app/server/http/readiness-banner.ts), so production never starts silently
// without them.
import { DEMO_SYSTEM_KIND } from "~/lib/school-systems";
import { config, type Config } from "../config.server";
import { db } from "../db/db.server";
import { log } from "../log.server";

export const CAPABILITIES = ["payment", "template_messages", "academic_system"] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The log event of each off capability: one warning line each, names kept stable for operators' alerts. */
export const CAPABILITY_OFF_EVENTS: Record<Capability, string> = {
  payment: "capability-off-payment",
  template_messages: "capability-off-template-messages",
  academic_system: "capability-off-academic-system",
};

export type OffCapability = { capability: Capability; reason: string };

/** The capabilities that are off, in a fixed order; none when everything is configured. */
export async function offCapabilities(settings: Config = config()): Promise<OffCapability[]> {
  const off: OffCapability[] = [];
  if (settings.pay.mode !== "real") {
    off.push({ capability: "payment", reason: settings.pay.mode === "simulated" ? "no pay merchant (simulated provider)" : "no pay merchant (WECHAT_PAY_*)" });
  }
  // Outside production the log provider stands in with simulated ids: those are not real ids.
  if (settings.notify.provider !== "real" || Object.keys(settings.notify.templates).length === 0) {
    off.push({
      capability: "template_messages",
      reason: settings.notify.provider === "real" ? "no template ids (WECHAT_TEMPLATE_*)" : "no messenger app (WECHAT_APP_ID) and no template ids",
    });
  }
  const school = await db()
    .selectFrom("schools")
    .select("code")
    .where("enabled", "=", 1)
    .where("system", "!=", DEMO_SYSTEM_KIND)
    .limit(1)
    .executeTakeFirst();
  if (!school) off.push({ capability: "academic_system", reason: "no enabled school with a real academic system" });
  return off;
}

/** Logs one warning line per off capability (at server start); returns them. */
export async function logCapabilityWarnings(settings: Config = config()): Promise<OffCapability[]> {
  const off = await offCapabilities(settings);
  for (const item of off) log("warn", CAPABILITY_OFF_EVENTS[item.capability], { capability: item.capability, reason: item.reason });
  return off;
}
