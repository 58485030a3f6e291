// What a page hosting the campus selector shows when the campus action refused a choice: the
// market and the backpack word the same refusals, so the table is here once.
import { campus as campusMessages } from "~/lib/messages/campus";
import type { CampusChoiceRefusal } from "~/server/campus/selector.server";

const msg = { campus: campusMessages };

export const CAMPUS_CHOICE_REFUSALS: Record<CampusChoiceRefusal, string> = {
  required: msg.campus.required,
  unknown: msg.campus.unknown,
  inactive: msg.campus.notActive,
};

/** The selector's error line for a refused choice, or none. */
export function campusChoiceText(refused: CampusChoiceRefusal | null): string | null {
  return refused ? CAMPUS_CHOICE_REFUSALS[refused] : null;
}
