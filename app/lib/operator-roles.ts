// Operator roles. Every operator runs orders, refunds and moderation; only the "admin" role
// changes the reference data students see (schools, campuses, prices, delivery slots) and assigns
// riders; a "rider" sees and works their own run only (app/lib/riders.ts).

export const OPERATOR_ROLES = ["operator", "admin", "rider"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
export const ADMIN_ROLE: OperatorRole = "admin";

export function isAdminRole(role: string | null | undefined) {
  return role === ADMIN_ROLE;
}
