import { campus as campusMessages } from "~/lib/messages/campus";

const msg = { campus: campusMessages };

/** The ?campusError= codes the campus action sends back, as the selector shows them. */
export function campusErrorMessage(code: string | null) {
  switch (code) {
    case "required":
      return msg.campus.required;
    case "unknown":
      return msg.campus.unknown;
    case "inactive":
      return msg.campus.notActive;
    default:
      return null;
  }
}
