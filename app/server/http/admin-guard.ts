// The admin-only pages' guard as the routes use it: app/server/auth's requireAdminRole, with its
// NotAdmin answered here as a 403 whose page says who may change them.
import { adminReference } from "~/lib/messages/adminReference";
import { NotAdmin, requireAdminRole, type Operator } from "~/server/auth/operator.server";

export async function requireAdminPage(request: Request): Promise<Operator> {
  try {
    return await requireAdminRole(request);
  } catch (error) {
    if (error instanceof NotAdmin) throw new Response(adminReference.adminOnly, { status: 403 });
    throw error;
  }
}
