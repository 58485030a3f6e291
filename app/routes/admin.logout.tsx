import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ADMIN_LOGIN_PATH, OPERATOR_HOME, logoutOperator } from "~/server/auth/operator.server";


// Logging out is a POST (a link could be triggered by any page); a GET just goes back.
export async function loader() {
  return redirect(OPERATOR_HOME);
}

export async function action({ request }: ActionFunctionArgs) {
  return redirect(ADMIN_LOGIN_PATH, { headers: { "Set-Cookie": await logoutOperator(request) } });
}
