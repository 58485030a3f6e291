import { NavLink } from "@remix-run/react";
import { TABS } from "~/lib/tabs";
import { Icon } from "./icons";

export function TabBar() {
  return (
    <nav aria-label="主导航" className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur">
      <ul className="mx-auto grid max-w-screen-sm grid-cols-4">
        {TABS.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              prefetch="intent"
              className={({ isActive }) =>
                `flex flex-col items-center gap-0.5 py-2 text-xs ${isActive ? "font-semibold text-brand" : "text-slate-500"}`
              }
            >
              {({ isActive }) => (
                <>
                  <Icon name={tab.icon} className="h-6 w-6" />
                  <span aria-current={isActive ? "page" : undefined}>{tab.label}</span>
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
