// The product rules' coupon calls (docs/product-rules.md, "Call paths") that our pages' JavaScript or a client may use. Each
// answers only for the signed-in messenger identity: an openid in the body must be the session's
// own (the body is never trusted to name someone else). There is no client-called grant endpoint:
// grants happen on the server (student login, invite registration).
import { DEFAULT_PACKAGE_TYPES } from "~/lib/catalog";
import { calculationResult, lastValidDay, normalizeCounts } from "~/lib/coupons";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { fenToYuan } from "~/lib/money";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import type { PricedType } from "~/lib/package-counts";
import { CalculateDiscountSchema, OpenidBodySchema } from "~/lib/schemas/coupons";
import { getUser, requireMessengerUser, type User } from "../auth/session.server";
import { readBody } from "../errands/json-body.server";
import { loadExpressConfig } from "../errands/market-config.server";
import { log } from "../log.server";
import { hasAssisted, inviteRecords, recordForApi } from "./campaign.server";
import { couponSummary, isNewUser, quoteFor, walletOf } from "./wallet.server";

const m = couponMessages;
const NO_STORE = { "Cache-Control": "no-store" };

const answer = (body: unknown, status = 200) => Response.json(body, { status, headers: NO_STORE });

export const methodNotAllowed = () => answer({ success: false, message: wechatMessages.methodNotAllowed }, 405);

/** The session's messenger user, refusing a body that names another openid. */
async function caller(request: Request, openid: string | undefined): Promise<User> {
  const user = await requireMessengerUser(request);
  if (openid && openid !== user.openid) throw answer({ success: false, message: m.errors.forbidden }, 403);
  return user;
}

/** The campus's package types with their prices (the defaults when the user has no usable campus). */
export async function pricedTypesFor(user: Pick<User, "campus_code">): Promise<PricedType[]> {
  if (user.campus_code) {
    const result = await loadExpressConfig(user.campus_code);
    if (result.ok) return result.config.packageTypes.map(({ type, name, priceFen }) => ({ type, name, priceFen }));
  }
  return DEFAULT_PACKAGE_TYPES.map(({ type, name, priceFen }) => ({ type, name, priceFen }));
}

/** POST /api/coupon/calculate-discount { openid, package_counts[, coupon_id] } → the product rules' calculation result. */
export async function calculateDiscountAction(request: Request) {
  if (request.method !== "POST") return methodNotAllowed();
  const parsed = CalculateDiscountSchema.safeParse((await readBody(request)) ?? {});
  if (!parsed.success) return answer({ success: false, message: m.errors.badRequest }, 400);
  const user = await getUser(request);
  if (!user?.openid) return answer({ success: false, message: m.errors.needMessenger }, 401);
  if (parsed.data.openid && parsed.data.openid !== user.openid) return answer({ success: false, message: m.errors.forbidden }, 403);
  try {
    const raw = parsed.data.coupon_id;
    const choice = raw === undefined ? "stored" : raw === null || raw === "none" ? null : raw === "best" ? undefined : Number(raw);
    const quote = await quoteFor(user.id, normalizeCounts(parsed.data.package_counts), await pricedTypesFor(user), { choice });
    const usable = quote.options.some((option) => option.usable);
    return answer({ success: true, message: usable ? "" : m.row.none, data: calculationResult(quote) });
  } catch (error) {
    log("error", "coupon-calculate", { error: String(error) });
    return answer({ success: false, message: m.errors.failed }, 500);
  }
}

/** POST /coupon/express-pickup/check-new-user { openid } → data.is_new_user. */
export async function checkNewUserAction(request: Request) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = OpenidBodySchema.safeParse((await readBody(request)) ?? {});
  const user = await caller(request, body.success ? body.data.openid : undefined);
  return answer({ success: true, data: { is_new_user: await isNewUser(user.id) } });
}

/** POST /api/coupon/check-assist-history { user_openid } → data.has_assisted. */
export async function checkAssistHistoryAction(request: Request) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = (await readBody(request)) ?? {};
  const openid = typeof body.user_openid === "string" ? body.user_openid : typeof body.openid === "string" ? body.openid : undefined;
  const user = await caller(request, openid);
  return answer({ success: true, data: { has_assisted: await hasAssisted(user.id) } });
}

/**
 * POST /coupon/express-pickup/user-coupons { openid }: the user's coupons (data.coupons), the
 * summary per template (available count, nearest expiry, expiring within 3 days) and the totals.
 */
export async function userCouponsAction(request: Request) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = OpenidBodySchema.safeParse((await readBody(request)) ?? {});
  const user = await caller(request, body.success ? body.data.openid : undefined);
  const now = new Date();
  const [wallet, summary] = await Promise.all([walletOf(user.id), couponSummary(user.id, now)]);
  const iso = now.toISOString();
  return answer({
    success: true,
    message: summary.stats.available === 0 ? m.row.none : "",
    data: {
      coupons: wallet.map((coupon) => ({
        id: coupon.id,
        name: coupon.name,
        coupon_name: coupon.name,
        template_id: coupon.templateId,
        type: coupon.type,
        discount_value: coupon.type === "percentage" ? (coupon.percentPaid ?? 100) / 100 : null,
        fixedPrice: coupon.type === "fixed" ? fenToYuan(coupon.fixedPriceFen ?? 0) : null,
        min_amount: fenToYuan(coupon.minAmountFen),
        status: coupon.status,
        is_expired: coupon.expiresAt <= iso,
        expired_at: coupon.expiresAt,
        last_valid_day: lastValidDay(coupon.expiresAt),
      })),
      coupon_summary: summary.groups.map((group) => ({
        template_id: group.templateId,
        coupon_name: group.name,
        label: group.label,
        available_count: group.availableCount,
        nearest_expiry: group.nearestExpiry,
        nearest_expiry_day: lastValidDay(group.nearestExpiry),
        expiring_soon: group.expiringSoon,
      })),
      total_stats: {
        available: summary.stats.available,
        reserved: summary.stats.reserved,
        used: summary.stats.used,
        expired: summary.stats.expired,
        expiring_soon: summary.stats.expiringSoon,
      },
    },
  });
}

/** GET /api/coupon/assist/records/openid/{openid}: the invite records, only for their own inviter. */
export async function assistRecordsLoader(request: Request, openid: string | undefined) {
  const user = await requireMessengerUser(request);
  if (!openid || openid !== user.openid) return answer({ success: false, message: m.errors.forbidden }, 403);
  const { records, completed, total } = await inviteRecords(user.id);
  return answer({ success: true, data: records.map(recordForApi), completed_count: completed, total });
}
