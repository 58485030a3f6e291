// GET /api/express/activate — the campus list for the campus selector: data.campus_list.
import { campus as campusMessages } from "~/lib/messages/campus";
import { listCampuses } from "~/server/campus/campus.server";
import { log } from "~/server/log.server";

const msg = { campus: campusMessages };

export async function loader() {
  try {
    const campuses = await listCampuses();
    return Response.json({
      success: true,
      message: campuses.length === 0 ? msg.campus.none : "ok",
      data: {
        campus_list: campuses.map((campus) => ({ code: campus.code, value: campus.name, status: campus.status, active: campus.active })),
      },
    });
  } catch (error) {
    log("error", "campus-list", { error: String(error) });
    return Response.json({ success: false, message: msg.campus.loadFailed, data: { campus_list: [] } }, { status: 500 });
  }
}
