// The pay button's state on a page: which stage of the flow is running (for the button's text)
// and one run at a time (a double tap starts nothing twice). The flow itself (./pay-flow, with
// the pay params' check and messages) is loaded on the first tap, not with the page.
import { useCallback, useRef, useState } from "react";
import { orderPage as orderPageMessages } from "~/lib/messages/order-page";
import type { PayOutcome, PayStage } from "./pay-flow";

const msg = { orderPage: orderPageMessages };

export function usePay(orderNumber: string, onOutcome: (outcome: PayOutcome) => void) {
  const [stage, setStage] = useState<PayStage | null>(null);
  const busy = useRef(false);
  const handler = useRef(onOutcome);
  handler.current = onOutcome;
  const start = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      setStage("creating");
      let flow: typeof import("./pay-flow");
      try {
        flow = await import("./pay-flow");
      } catch {
        handler.current({ kind: "failed", message: msg.orderPage.pay.networkError });
        return;
      }
      handler.current(await flow.runPayment(orderNumber, setStage));
    } finally {
      busy.current = false;
      setStage(null);
    }
  }, [orderNumber]);
  return { stage, start };
}
