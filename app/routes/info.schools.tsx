import { listSchools } from "~/server/school/school.server";

// GET /info/schools: the product rules' school list call.
export async function loader() {
  const { schools } = await listSchools();
  return Response.json({ success: true, data: schools });
}
