import { app as appMessages } from "~/lib/messages/app";

const msg = { app: appMessages };

/** `home`: where 回到首页 goes; a missing post goes back to the circle, the app's pages to "/". */
export function ErrorScreen({ title, body, code, home = "/" }: { title: string; body: string; code: number; home?: string }) {
  return (
    <div className="mx-auto flex min-h-screen max-w-screen-sm flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-6xl font-bold text-brand">{code}</p>
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="text-sm text-slate-500">{body}</p>
      {/* A plain link: after an error the client router may be in a bad state. */}
      <a href={home} className="btn-primary mt-2">
        {msg.app.home}
      </a>
    </div>
  );
}
