// The same call under the /api prefix (the product rules' client uses both).
export { action, loader } from "./coupon.express-pickup.check-new-user";
