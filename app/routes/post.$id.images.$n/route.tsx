import { Link, useNavigate, useParams, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Icon } from "~/components/icons";
import { app as appMessages } from "~/lib/messages/app";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { postSheets as postSheetsMessages } from "~/lib/messages/postSheets";
import type { PostLoaderData } from "../post.$id/route";

const msg = { app: appMessages, postDetail: postDetailMessages, postSheets: postSheetsMessages };

/**
 * The full-screen image preview, /post/:id/images/:n (a child route, so its code loads only when
 * opened). Previous/next are links (no JS needed); with JS: Escape, the arrow keys and swipes.
 */
export default function ImagePreview() {
  const data = useRouteLoaderData<PostLoaderData>("routes/post.$id");
  const params = useParams();
  const navigate = useNavigate();
  const closeRef = useRef<HTMLAnchorElement>(null);
  const touchX = useRef<number | null>(null);
  const post = data?.post;
  const total = post?.images.length ?? 0;
  const index = Number(params.n) - 1;
  const base = `/post/${params.id}`;
  const go = (to: number) => navigate(`${base}/images/${to + 1}`, { replace: true, preventScrollReset: true });

  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(base, { replace: true, preventScrollReset: true });
      else if (event.key === "ArrowLeft" && index > 0) go(index - 1);
      else if (event.key === "ArrowRight" && index < total - 1) go(index + 1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [index, total]);

  if (!post || !Number.isInteger(index) || index < 0 || index >= total) return null;
  const image = post.images[index]!;
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={msg.postSheets.imagePreview}
      className="fixed inset-0 z-50 !mt-0 flex flex-col bg-black text-white"
      onTouchStart={(event) => (touchX.current = event.touches[0]?.clientX ?? null)}
      onTouchEnd={(event) => {
        const start = touchX.current;
        const end = event.changedTouches[0]?.clientX;
        if (start === null || end === undefined) return;
        if (end - start > 50 && index > 0) go(index - 1);
        if (start - end > 50 && index < total - 1) go(index + 1);
      }}
    >
      <div className="flex items-center justify-between p-3">
        <span aria-live="polite" className="text-sm tabular-nums" data-testid="preview-counter">
          {index + 1} / {total}
        </span>
        <Link ref={closeRef} to={base} replace preventScrollReset className="rounded-full p-2 hover:bg-white/10" aria-label={msg.app.close}>
          <Icon name="close" className="h-6 w-6" />
        </Link>
      </div>
      <div className="relative flex min-h-0 flex-1 items-center justify-center">
        <img src={image.url} alt={`${msg.postDetail.imageAlt} ${index + 1}`} className="max-h-full max-w-full object-contain" />
        {index > 0 ? (
          <Link to={`${base}/images/${index}`} replace preventScrollReset className="absolute left-1 rounded-full bg-white/10 p-2" aria-label={msg.postSheets.previous}>
            <Icon name="back" className="h-6 w-6" />
          </Link>
        ) : null}
        {index < total - 1 ? (
          <Link to={`${base}/images/${index + 2}`} replace preventScrollReset className="absolute right-1 rounded-full bg-white/10 p-2" aria-label={msg.postSheets.next}>
            <Icon name="chevron" className="h-6 w-6" />
          </Link>
        ) : null}
      </div>
    </div>
  );
}
