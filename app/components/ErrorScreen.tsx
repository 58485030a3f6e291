import { app as appMessages } from "~/lib/messages/app";

const msg = { app: appMessages };

/** `home` and `homeLabel`: where the button leads and what it says (a missing post: 回到校园圈, the circle). */
export function ErrorScreen({ title, body, code, home = "/", homeLabel = msg.app.home }: { title: string; body: string; code: number; home?: string; homeLabel?: string }) {
  return (
    <div className="mx-auto flex min-h-screen max-w-screen-sm flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-6xl font-bold text-brand">{code}</p>
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="text-sm text-slate-500">{body}</p>
      {/* A plain link: after an error the client router may be in a bad state. */}
      <a href={home} className="btn-primary mt-2">
        {homeLabel}
      </a>
    </div>
  );
}
