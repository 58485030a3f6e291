// What the operator login form (/admin/login, through the remix-auth strategy) answers when
// app/server/auth refuses an operator login: the status and the catalogue's message.
import { tooManyMessage } from "~/lib/login-throttle";
import { admin as adminMessages } from "~/lib/messages/admin";
import type { OperatorLoginRefusal } from "~/server/auth/operator.server";
import type { RefusalAnswer, RefusalTable } from "./refusal-table";

type OperatorLoginAnswer = "invalid" | "limited" | "captcha_empty" | "captcha_wrong";

/** Each refusal's answer; `limited` has the wait filled in by operatorLoginRefusal. */
export const OPERATOR_LOGIN_REFUSALS: RefusalTable<OperatorLoginAnswer> = {
  // One answer for an unknown username, a wrong password and a disabled operator.
  invalid: { status: 400, message: adminMessages.invalidCredentials },
  limited: { status: 429, message: adminMessages.tooManyAttempts },
  captcha_empty: { status: 400, message: adminMessages.captchaRequired },
  captcha_wrong: { status: 400, message: adminMessages.captchaWrong },
};

/** A refused operator login as the form shows it: the status, the message, and the field it belongs beside. */
export function operatorLoginRefusal(refused: OperatorLoginRefusal): RefusalAnswer & { field?: "captcha" } {
  switch (refused.reason) {
    case "invalid":
      return OPERATOR_LOGIN_REFUSALS.invalid;
    case "limited": {
      const { status, message } = OPERATOR_LOGIN_REFUSALS.limited;
      return { status, message: tooManyMessage(message, refused.waitMs) };
    }
    case "captcha":
      return { ...OPERATOR_LOGIN_REFUSALS[refused.captcha === "empty" ? "captcha_empty" : "captcha_wrong"], field: "captcha" };
  }
}
