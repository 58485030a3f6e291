import type { User } from "../auth/session.server";
import { campusErrorMessage } from "~/lib/campus-errors";
import { chosenCampus, listCampuses } from "./campus.server";

/**
 * What a page hosting the campus selector needs: the campuses, the current choice, and whether
 * the selector is open (no valid choice yet, or the page was asked to switch).
 */
export async function campusSelectorState(request: Request, user: User | null) {
  const url = new URL(request.url);
  const error = campusErrorMessage(url.searchParams.get("campusError"));
  const [campuses, current] = await Promise.all([listCampuses(), chosenCampus(request, user)]);
  const asked = url.searchParams.get("selectCampus") === "1";
  url.searchParams.delete("selectCampus");
  url.searchParams.delete("campusError");
  return {
    campuses,
    current,
    asked,
    open: asked || !current,
    error,
    redirectTo: url.pathname + url.search,
  };
}
