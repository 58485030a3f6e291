import * as z from "zod";
import * as msg from "../messages";

/** The simulated provider's authorize page (development only): allow with a nickname, or refuse. */
export const SimulatedAuthorizeSchema = z.object({
  intent: z.enum(["authorize", "refuse"]),
  state: z.string().regex(/^[A-Za-z0-9]{1,128}$/),
  nickname: z.string().trim().max(32, { error: msg.wechat.simulate.nicknameTooLong }).optional(),
});
