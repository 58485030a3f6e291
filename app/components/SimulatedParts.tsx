// The two development-only stand-ins for the messenger's own pages (OAuth and subscribe consent)
// end the same way: a refuse/allow pair of submit buttons, or a card when the request is invalid.

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
