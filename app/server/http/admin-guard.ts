// The admin-only pages' guard (schools, campuses, prices, delivery slots, riders, the school
// calendar): an operator with the admin role; any other operator gets a 403 whose page says who
// may change them.
import { adminReference } from "~/lib/messages/adminReference";
import { isAdminRole } from "~/lib/operator-roles";
import type { Operator } from "~/server/auth/operator.server";
import { requireAdmin } from "./guards.server";

export async function requireAdminPage(request: Request): Promise<Operator> {
  const operator = await requireAdmin(request);
  if (!isAdminRole(operator.role)) throw new Response(adminReference.adminOnly, { status: 403 });
  return operator;
}
