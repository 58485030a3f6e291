import { Link } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { app as appMessages } from "~/lib/messages/app";
import { Icon } from "./icons";

const msg = { app: appMessages };

/** The frame of every screen: a title bar (with a back link when given) and a centred column. */
export function Page({
  title,
  back,
  backForm,
  actions,
  children,
  withTabBar = false,
}: {
  title: string;
  back?: string;
  /**
   * The id of a form whose text must not be lost: the back arrow submits it with intent=leave
   * (its action keeps the text, then goes back), with or without JavaScript.
   */
  backForm?: string;
  actions?: ReactNode;
  children: ReactNode;
  withTabBar?: boolean;
}) {
  return (
    <div className={`mx-auto min-h-screen max-w-screen-sm ${withTabBar ? "pb-20" : "pb-8"}`}>
      <header className="sticky top-0 z-20 flex h-12 items-center gap-2 bg-brand px-3 text-white shadow-sm">
        {backForm ? (
          <button type="submit" form={backForm} name="intent" value="leave" formNoValidate className="-ml-1 rounded-full p-1 hover:bg-white/10" aria-label={msg.app.back}>
            <Icon name="back" className="h-6 w-6" />
          </button>
        ) : back ? (
          <Link to={back} className="-ml-1 rounded-full p-1 hover:bg-white/10" aria-label={msg.app.back}>
            <Icon name="back" className="h-6 w-6" />
          </Link>
        ) : null}
        <h1 className="flex-1 truncate text-lg font-semibold">{title}</h1>
        {actions}
      </header>
      <main className="space-y-3 p-3">{children}</main>
    </div>
  );
}

export function UnderConstruction({ title, back, withTabBar }: { title: string; back?: string; withTabBar?: boolean }) {
  return (
    <Page title={title} back={back} withTabBar={withTabBar}>
      <section className="card flex flex-col items-center gap-2 py-10 text-center">
        <Icon name="settings" className="h-10 w-10 text-brand" />
        <p className="text-base font-semibold">{msg.app.underConstruction}</p>
        <p className="text-sm text-slate-500">{msg.app.underConstructionHint}</p>
      </section>
    </Page>
  );
}

/**
 * False in the server's HTML and until React runs in the browser: a control that needs
 * JavaScript (copy a link, show the password) is left out until it can work. Kept beside the
 * frame every screen imports, so it costs no chunk of its own.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
