import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CouponPanel } from "~/components/market/CouponPanel";
import { couponDialogLoader } from "./coupon.server";

// /market/checkout/coupon — the coupon detail dialog over the order-confirm sheet (a rare dialog:
// its own route, so its code loads only when it opens). The choice posts to /market/coupon-choice.
export async function loader({ request }: LoaderFunctionArgs) {
  return couponDialogLoader(request);
}

export default function CouponDialog() {
  const { panel } = useLoaderData<typeof loader>();
  return <CouponPanel panel={panel} />;
}
