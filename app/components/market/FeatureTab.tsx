import { useFetcher } from "@remix-run/react";
import { MARKET_ACTION } from "~/lib/market-links";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { ProofOfWork } from "../ProofOfWork";
import type { FeatureTabView } from "~/lib/market-views";
import { Icon } from "../icons";
import { IconList } from "../IconList";
import { useFetcherToast } from "./toast-context";

/**
 * The supermarket and errand tabs: an intro card and "I need this feature" (with JavaScript it
 * goes to the product rules' JSON call /api/feature-request; without, the form posts the market page), and
 * the supermarket's order form, which is not open yet.
 */
export function FeatureTab({ feature }: { feature: FeatureTabView }) {
  const want = useFetcher();
  const order = useFetcher();
  useFetcherToast(want);
  useFetcherToast(order);
  const { labels } = feature;
  return (
    <div className="space-y-3">
      <section className="card space-y-3">
        <div className="flex items-center gap-3">
          <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-soft text-brand" aria-hidden="true">
            <Icon name={feature.kind === "online" ? "bag" : "sparkle"} className="h-6 w-6" />
          </span>
          <div>
            <h2 className="text-lg font-semibold">{feature.title}</h2>
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-700">{labels.comingSoon}</span>
          </div>
        </div>
        <p className="text-sm leading-6 text-slate-600">{feature.intro}</p>
        <IconList lines={feature.points} icon="check" className="space-y-1.5 text-sm text-slate-700" iconClassName="text-green-600" />
        <want.Form
          method="post"
          action={MARKET_ACTION}
          onSubmit={(event) => {
            event.preventDefault();
            // The proof of work is solved before this runs (ProofOfWork holds the submit until then).
            const proof = event.currentTarget.elements.namedItem(PROOF_OF_WORK.field);
            want.submit(
              {
                featureType: feature.kind,
                timestamp: new Date().toISOString(),
                userAgent: navigator.userAgent,
                platform: navigator.platform || "web",
                [PROOF_OF_WORK.field]: proof instanceof HTMLInputElement ? proof.value : "",
              },
              { method: "post", action: "/api/feature-request", encType: "application/json" },
            );
          }}
        >
          <input type="hidden" name="intent" value="feature-request" />
          <input type="hidden" name="featureType" value={feature.kind} />
          <ProofOfWork challenge={feature.proof} />
          <button type="submit" className="btn-primary h-11 w-full">
            {labels.want}
          </button>
        </want.Form>
      </section>
      {feature.kind === "online" ? (
        <order.Form method="post" action={MARKET_ACTION} className="card space-y-2">
          <input type="hidden" name="intent" value="supermarket-submit" />
          <h3 className="text-sm font-semibold">{labels.submitOrder}</h3>
          <input name="address" type="text" placeholder={labels.address} aria-label={labels.address} autoComplete="street-address" className="field-input text-sm" />
          <input name="phone" type="tel" placeholder={labels.phone} aria-label={labels.phone} className="field-input text-sm" />
          <button type="submit" className="btn-ghost h-10 w-full">
            {labels.submitOrder}
          </button>
        </order.Form>
      ) : null}
    </div>
  );
}
