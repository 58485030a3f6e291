import type { ProofChallenge } from "./proof-of-work";
// What the market's loaders send for the parts of the page that have no behaviour of their own
// (the hero, the promo card, the read-only panels, the coupon and assist dialogs): plain typed
// data, texts already filled in on the server, rendered by the small components in
// app/components/market/. Types only: nothing here reaches the page's JavaScript.
import type { SubmissionResult } from "@conform-to/react";

/** What a market action answers when it stays on the page: a toast, an error, a hint, a form's reply. */
export type MarketActionData = {
  intent: string;
  notice?: string;
  error?: string;
  /** '智能识别未识别出取件码，请手动填写': flash the manual-add hint for 5 s. */
  manualHint?: boolean;
  /** conform's reply for the form that was posted (errors beside its fields, the values kept). */
  result?: SubmissionResult<string[]>;
  /** The live order that already holds a parcel of this order (the error links to it). */
  liveOrder?: string;
};

/** The express tab's promo card (coupons): the campaign's copy as the rules say it. */
export type PromoCardView = {
  title: string;
  priceFrom: string;
  threshold: string;
  validity: string;
  tickets: { label: string; count?: number }[];
  line: string;
  messenger: boolean;
  authHref: string;
  links: { promo: string; invite: string };
  actions: { more: string; invite: string; authorize: string };
};

/** A line of a read-only panel: a label and its value. */
export type InfoRow = { label: string; value: string };

/** The size guide's package types. */
export type SizeGuideType = {
  type: string;
  name: string;
  desc: string;
  price: string;
  standards: { title: string; desc: string; examples: string[] }[];
};

/** The read-only panels (?sheet=…): their copy is data, one component draws each kind. */
export type InfoPanelView = { title: string; closeTo: string } & (
  | { kind: "size"; types: SizeGuideType[]; focus: string | null; examples: string }
  | { kind: "rows"; rows: InfoRow[] }
  | { kind: "contact"; links: { href: string; title: string; detail: string; action: string; muted?: boolean }[] }
  | { kind: "list"; items: string[] }
  | { kind: "message"; body: string }
);

/** The coupon detail dialog (/market/checkout/coupon). */
export type CouponPanelView = {
  title: string;
  closeTo: string;
  choiceAction: string;
  totals: { term: string; value: string; tone: "plain" | "discount" | "final" }[];
  usage: { title: string; best: string | null; text: string; amount: string } | null;
  parcelsTitle: string;
  parcels: { name: string; couponName: string | null; original: string | null; final: string }[];
  chooseTitle: string;
  empty: string;
  options: { id: number; name: string; detail: string; expiry: string; soon: string | null; current: boolean; usable: boolean }[];
  labels: { inUse: string; use: string };
  /** The ghost button under the list: back to no coupon, or back to the best one. */
  reset: { choice: "none" | "best"; label: string } | null;
  rule: string;
};

/** The express tab's assist dialog (/market?invite=…). */
export type AssistDialogView = {
  title: string;
  action: string;
  code: string;
  token: string | null;
  inviter: { nickname: string; avatar: string | null; line: string } | null;
  body: string;
  error: string | null;
  labels: { code: string; placeholder: string; later: string; submit: string };
};

/** The supermarket and errand tabs (not open yet): the intro and the feature request. */
export type FeatureTabView = {
  kind: "online" | "errand";
  title: string;
  intro: string;
  points: string[];
  labels: { comingSoon: string; want: string; submitOrder: string; address: string; phone: string };
  /** The "I need this feature" form's proof of work (decision 042). */
  proof: ProofChallenge;
};
