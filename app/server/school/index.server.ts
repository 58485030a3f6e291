// Entry point for academic systems: pick the adapter a school's configuration names.
import { createDemoSystem } from "./demo.server";
import { createQiangzhiSystem } from "./qiangzhi.server";
import type { OutboundOptions } from "../outbound/outbound.server";
import type { AcademicSystem, SchoolConfig } from "./types";
import { createZfsoftSystem } from "./zfsoft.server";

export { DEMO_PASSWORD, DEMO_SCHOOL } from "./demo.server";
export * from "./types";

export function createAcademicSystem(
  school: SchoolConfig,
  opts: { timeoutMs?: number; outbound?: OutboundOptions } = {},
): AcademicSystem {
  switch (school.system) {
    case "demo":
      return createDemoSystem();
    case "zfsoft":
      if (!school.baseUrl) throw new Error(`school ${school.code}: a ZFsoft school needs a baseUrl`);
      return createZfsoftSystem({
        baseUrl: school.baseUrl,
        timeoutMs: opts.timeoutMs,
        outbound: opts.outbound,
        week1Starts: school.week1Starts,
      });
    case "qiangzhi":
      if (!school.baseUrl) throw new Error(`school ${school.code}: a QiangZhi school needs a baseUrl`);
      return createQiangzhiSystem({
        baseUrl: school.baseUrl,
        timeoutMs: opts.timeoutMs,
        outbound: opts.outbound,
        week1Starts: school.week1Starts,
      });
  }
}
