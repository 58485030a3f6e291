// The admin pages' banner of the capabilities that are off (app/server/admin/readiness.server.ts
// says which): one catalogue line per capability, the texts filled in here for every admin page.
import { adminReference } from "~/lib/messages/adminReference";
import { offCapabilities } from "~/server/admin/readiness.server";
import { config } from "~/server/config.server";
import { log } from "~/server/log.server";

/** The banner's own texts travel with it, so the reference catalogue stays off every admin page. */
const BANNER_TEXTS = { title: adminReference.readinessTitle, simulated: adminReference.readinessSimulated, schoolsLink: adminReference.readinessSchoolsLink };

/** The admin pages' banner: one Chinese line per off capability, its texts filled in here. */
export async function readinessBanner(): Promise<{ lines: string[]; simulated: boolean; schoolsOff: boolean; texts: typeof BANNER_TEXTS }> {
  try {
    const off = await offCapabilities();
    return {
      lines: off.map((item) => adminReference.readiness[item.capability]!),
      simulated: !config().isProduction && off.length > 0,
      schoolsOff: off.some((item) => item.capability === "academic_system"),
      texts: BANNER_TEXTS,
    };
  } catch (error) {
    log("error", "readiness", { error: String(error) });
    return { lines: [], simulated: false, schoolsOff: false, texts: BANNER_TEXTS };
  }
}

export type ReadinessBanner = Awaited<ReturnType<typeof readinessBanner>>;
