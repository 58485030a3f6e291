import { db, now } from "../db/db.server";

export const FEATURE_TYPES = ["online", "errand"] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

/** Stores one "I need this feature" tap (anonymous visitors too: no user then). */
export async function recordFeatureRequest(input: { userId: number | null; featureType: string; userAgent: string | null; platform: string | null }) {
  await db()
    .insertInto("feature_requests")
    .values({
      user_id: input.userId,
      feature_type: input.featureType.slice(0, 32),
      user_agent: input.userAgent?.slice(0, 300) ?? null,
      platform: input.platform?.slice(0, 32) ?? null,
      created_at: now(),
    })
    .execute();
}
