import { listSchools } from "~/server/school/school.server";

// GET /info/schools: the spec's school list call.
export async function loader() {
  const { schools } = await listSchools();
  return Response.json({ success: true, data: schools });
}
