import type { Migration } from "kysely";
import * as foundation from "./0001_foundation";
import * as identity from "./0002_identity";
import * as market from "./0005_market";
import * as circle from "./0003_circle";
import * as timetable from "./0004_timetable";
import * as notify from "./0006_notify";
import * as orders from "./0007_orders";
import * as coupons from "./0008_coupons";
import * as admin from "./0009_admin";
import * as listOrderIndexes from "./0010_list_order_indexes";
import * as threadsCaptchaLockouts from "./0013_threads_captcha_lockouts";
import * as rateLimits from "./0014_rate_limits";
import * as grades from "./0015_grades";
import * as referenceData from "./0011_reference_data";
import * as promotionMarks from "./0012_promotion_marks";
import * as mutualHelp from "./0019_mutual_help";
import * as appearance from "./0020_appearance";
import * as draftStash from "./0016_draft_stash";
import * as schoolGpaFormula from "./0036_school_gpa_formula";
import * as recognitionCorrections from "./0021_recognition_corrections";
import * as moneyLedger from "./0021_money_ledger";
import * as studentsRoundThree from "./0035_students_round_three";
import * as sessionIdle from "./0042_session_idle";
import * as pickupDeadline from "./0044_pickup_deadline";
import * as searchPairsOnly from "./0050_search_pairs_only";
import * as referenceVersion from "./0056_reference_version";
import * as nicknameKeys from "./0043_nickname_keys";
import * as timetableOwn from "./0040_timetable_own";
import * as circleSearch from "./0041_circle_search_pseudonyms_favourites";
import * as riders from "./0038_riders";
import * as operatorsDay from "./0039_operators_day";
import * as deliveryPhotoSupplements from "./0047_delivery_photo_supplements";
import * as supplementMissing from "./0052_supplement_missing";

// Migrations are imported statically so the server bundle carries them; a new one is a new row.
export const migrations: Record<string, Migration> = {
  "0001_foundation": foundation,
  "0002_identity": identity,
  "0005_market": market,
  "0003_circle": circle,
  "0004_timetable": timetable,
  "0006_notify": notify,
  "0007_orders": orders,
  "0008_coupons": coupons,
  "0009_admin": admin,
  "0010_list_order_indexes": listOrderIndexes,
  "0013_threads_captcha_lockouts": threadsCaptchaLockouts,
  "0014_rate_limits": rateLimits,
  "0015_grades": grades,
  "0011_reference_data": referenceData,
  "0012_promotion_marks": promotionMarks,
  "0019_mutual_help": mutualHelp,
  "0020_appearance": appearance,
  "0016_draft_stash": draftStash,
  "0036_school_gpa_formula": schoolGpaFormula,
  "0021_recognition_corrections": recognitionCorrections,
  "0021_money_ledger": moneyLedger,
  "0035_students_round_three": studentsRoundThree,
  "0042_session_idle": sessionIdle,
  "0044_pickup_deadline": pickupDeadline,
  "0043_nickname_keys": nicknameKeys,
  "0040_timetable_own": timetableOwn,
  "0041_circle_search_pseudonyms_favourites": circleSearch,
  "0038_riders": riders,
  "0039_operators_day": operatorsDay,
  "0050_search_pairs_only": searchPairsOnly,
  "0047_delivery_photo_supplements": deliveryPhotoSupplements,
  "0052_supplement_missing": supplementMissing,
  "0056_reference_version": referenceVersion,
};
