// GET /api/express/delivery-schedule — data.delivery_schedule, a JSON string of the slots (as the
// older client expected), plus the estimate for an order placed now.
import { estimateDelivery } from "~/lib/delivery-slot";
import { loadDeliverySchedule } from "~/server/market/market-config.server";

export async function loader() {
  const schedule = await loadDeliverySchedule();
  return Response.json(
    {
      success: true,
      message: "ok",
      // The slots as the older client knew them (their stored ids stay inside).
      data: { delivery_schedule: JSON.stringify(schedule.map(({ id: _id, ...slot }) => slot)), estimated_delivery_time: estimateDelivery(new Date(), schedule).at },
    },
    { headers: { "Cache-Control": "private, max-age=60" } },
  );
}
