// The same call under the /api prefix (the spec's promo page reads data.coupons from it).
export { action, loader } from "./coupon.express-pickup.user-coupons";
