// The same call under the /api prefix (the product rules' promo page reads data.coupons from it).
export { action, loader } from "./coupon.express-pickup.user-coupons";
