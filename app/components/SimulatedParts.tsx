// The two development-only stand-ins for the messenger's own pages (OAuth and subscribe consent)
// look alike: the development notice, the app asking with its icon, then a refuse/allow pair of
// submit buttons, or a card when the request is invalid.
import { Icon, type IconName } from "~/components/icons";
import { app as appMessages } from "~/lib/messages/app";

/** That this page stands in for the messenger's own (development only). */
export function SimulatedNotice({ text }: { text: string }) {
  return (
    <p role="note" className="rounded-2xl bg-amber-50 p-3 text-sm text-amber-800">
      {text}
    </p>
  );
}

/** The app's name beside an icon, and what it asks for. */
export function AppAsks({ icon, asks }: { icon: IconName; asks: string }) {
  return (
    <div className="flex items-center gap-3">
      <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand text-white">
        <Icon name={icon} className="h-6 w-6" />
      </span>
      <div>
        <p className="text-base font-semibold">{appMessages.name}</p>
        <p className="text-sm text-slate-500">{asks}</p>
      </div>
    </div>
  );
}

export function ChoiceButtons({ refuse, allow }: { refuse: { value: string; label: string }; allow: { value: string; label: string } }) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <button type="submit" name="intent" value={refuse.value} className="btn-ghost">
        {refuse.label}
      </button>
      <button type="submit" name="intent" value={allow.value} className="btn-primary">
        {allow.label}
      </button>
    </div>
  );
}

export function BadRequestCard({ message, backHref, backLabel }: { message: string; backHref: string; backLabel: string }) {
  return (
    <section className="card space-y-3 text-center">
      <p role="alert" className="text-sm text-red-600">
        {message}
      </p>
      <a href={backHref} className="btn-ghost">
        {backLabel}
      </a>
    </section>
  );
}
