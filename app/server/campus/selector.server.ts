import type { User } from "../auth/session.server";
import { chosenCampus, listCampuses } from "./campus.server";

/** Why the campus action refused a choice; it sends the reason back as ?campusError=. */
export const CAMPUS_CHOICE_REFUSALS = ["required", "unknown", "inactive"] as const;
export type CampusChoiceRefusal = (typeof CAMPUS_CHOICE_REFUSALS)[number];

function choiceRefusal(code: string | null): CampusChoiceRefusal | null {
  return CAMPUS_CHOICE_REFUSALS.find((reason) => reason === code) ?? null;
}

/**
 * What a page hosting the campus selector needs: the campuses, the current choice, whether
 * the selector is open (no valid choice yet, or the page was asked to switch) and why the last
 * choice was refused (the page words it).
 */
export async function campusSelectorState(request: Request, user: User | null) {
  const url = new URL(request.url);
  const refused = choiceRefusal(url.searchParams.get("campusError"));
  const [campuses, current] = await Promise.all([listCampuses(), chosenCampus(request, user)]);
  const asked = url.searchParams.get("selectCampus") === "1";
  url.searchParams.delete("selectCampus");
  url.searchParams.delete("campusError");
  return {
    campuses,
    current,
    asked,
    open: asked || !current,
    refused,
    redirectTo: url.pathname + url.search,
  };
}
