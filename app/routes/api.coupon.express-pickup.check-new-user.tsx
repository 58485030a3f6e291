// The same call under the /api prefix (the spec's client uses both).
export { action, loader } from "./coupon.express-pickup.check-new-user";
