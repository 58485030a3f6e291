// The academic-system adapters the server can talk to (app/server/school/index.server.ts picks
// one by a school's `system`). One list: the school form offers these and nothing else. A new
// adapter adds its kind here, its label in the messages and its case in createAcademicSystem.

export const SCHOOL_SYSTEM_KINDS = ["demo", "zfsoft", "qiangzhi"] as const;
export type SchoolSystemKind = (typeof SCHOOL_SYSTEM_KINDS)[number];

/** The built-in demo school's kind: it needs no base URL and is no real academic system. */
export const DEMO_SYSTEM_KIND: SchoolSystemKind = "demo";

export function isSchoolSystemKind(value: string): value is SchoolSystemKind {
  return (SCHOOL_SYSTEM_KINDS as readonly string[]).includes(value);
}

/** Kinds that talk to a real school over HTTP and so need its base URL. */
export function systemNeedsBaseUrl(kind: SchoolSystemKind) {
  return kind !== DEMO_SYSTEM_KIND;
}
