import * as z from "zod";
import { PHONE_PATTERN } from "../address";
import { coupons as couponMessages } from "../messages/coupons";
import { login } from "../messages/login";

const r = couponMessages.register;

/** The invite-register dialog (docs/product-rules.md, "Validation"): nickname 2–20, phone as the address form's, student id 6–20. */
export const InviteRegisterSchema = z.object({
  intent: z.literal("register"),
  nickname: z.string({ error: r.nicknameRequired }).trim().min(1, r.nicknameRequired).min(2, r.nicknameLength).max(20, r.nicknameLength),
  phone: z.string({ error: r.phoneRequired }).trim().min(1, r.phoneRequired).regex(PHONE_PATTERN, r.phoneInvalid),
  studentId: z.string({ error: r.studentIdRequired }).trim().min(1, r.studentIdRequired).min(6, r.studentIdLength).max(20, r.studentIdLength),
  // The student id is proved by a school-account login, as /crLogin does (docs/architecture.md "New user").
  school: z.string({ error: login.selectSchool }).trim().min(1, login.selectSchool).max(64),
  password: z.string({ error: login.enterPassword }).min(1, login.enterPassword).max(128),
  captcha: z.string({ error: login.enterCaptcha }).trim().min(1, login.enterCaptcha).max(8),
  captchaId: z.string().max(400).optional(),
  invite: z.string().trim().max(32).optional(),
  inviter: z.string().trim().max(64).optional(),
});

/** The express tab's assist dialog: the invite code ('请输入邀请码' when empty) and the link's inviter id. */
export const AssistStartSchema = z.object({
  invite: z.string({ error: couponMessages.errors.codeRequired }).trim().min(1, couponMessages.errors.codeRequired).max(32, couponMessages.errors.inviterMissing),
  inviter: z.string().trim().max(64).optional(),
});

/** The coupon dialog's choice: the best one, none, or a coupon id. */
export const CouponChoiceSchema = z.object({
  choice: z.union([z.literal("best"), z.literal("none"), z.string().regex(/^\d{1,10}$/)]),
  returnTo: z.string().max(200).optional(),
});

/** POST /api/coupon/calculate-discount: the product rules' openid and package_counts, and optionally a coupon. */
export const CalculateDiscountSchema = z.object({
  openid: z.string().max(128).optional(),
  /** Parcels per package type: counts 0–99 (numbers or digit strings); unknown types are ignored. */
  package_counts: z.record(z.string(), z.union([z.number().int().min(0).max(99), z.string().regex(/^\d{1,2}$/), z.null()])),
  /** A coupon id, or null / "none" for none; absent: the choice stored from the sheet, else the best. */
  coupon_id: z.union([z.number().int().positive(), z.string().regex(/^\d{1,10}$/), z.literal("none"), z.literal("best"), z.null()]).optional(),
});

/** The product rules' { openid } body of the /coupon calls. */
export const OpenidBodySchema = z.object({ openid: z.string().max(128).optional() });
