import { tabs as tabsMessages } from "~/lib/messages/tabs";

const msg = { tabs: tabsMessages };

/** The bottom tab bar: shown on exactly these four routes. */
export const TABS = [
  { to: "/schedule", label: msg.tabs.schedule, icon: "calendar" },
  { to: "/circle", label: msg.tabs.circle, icon: "chat" },
  { to: "/market", label: msg.tabs.market, icon: "bag" },
  { to: "/backpack", label: msg.tabs.backpack, icon: "user" },
] as const;

export function showsTabBar(pathname: string) {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  return TABS.some((tab) => tab.to === path);
}
