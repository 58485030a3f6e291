/** A page's failure in place of its content: what failed and why, and a plain link (no JavaScript needed) to start again. */
export function FailedCard({ failed, reason, href, action }: { failed: string; reason: string; href: string; action: string }) {
  return (
    <section role="alert" className="card space-y-3 py-10 text-center">
      <p className="text-sm text-red-600">
        {failed}
        {reason}
      </p>
      <a href={href} className="btn-primary">
        {action}
      </a>
    </section>
  );
}
