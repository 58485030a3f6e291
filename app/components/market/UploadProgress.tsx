import { useEffect, useState } from "react";
import { market } from "~/lib/messages/market";
import { QUEUE_POLL_MS, type QueuedImage } from "~/lib/screenshot-recognition";
import { Icon } from "../icons";
import type { Upload } from "./ExpressTab";

const m = market;

/**
 * The chosen screenshots and their progress, one line each (upload %, the place in the
 * recognition queue, what was found). Loaded lazily with the upload code: only a page where a
 * screenshot was chosen runs it.
 */
export default function UploadProgress({ uploads, upload, onRemove }: { uploads: Upload[]; upload: typeof import("./upload-images"); onRemove: (id: number) => void }) {
  const [places, setPlaces] = useState<QueuedImage[]>([]);
  const queued = uploads.some((item) => item.status === "pending" && item.step.kind === "queued");

  // While an image waits for the server, ask for its place in the queue every second.
  useEffect(() => {
    if (!queued) return;
    let stopped = false;
    const poll = async () => {
      const answer = await upload.queuePlaces();
      if (!stopped && answer) setPlaces(answer);
    };
    void poll();
    const timer = setInterval(poll, QUEUE_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [queued, upload]);

  return (
    <>
      <ul className="mb-2 flex gap-2" aria-label={m.express.images}>
        {uploads.map((item, index) => (
          <li key={item.id} className="relative h-20 w-16 overflow-hidden rounded-xl border border-slate-200 bg-slate-50">
            <img src={item.url} alt={`${m.express.images} ${index + 1}`} className="h-full w-full object-cover" />
            {item.status === "pending" ? (
              <span className="absolute inset-0 flex items-center justify-center bg-black/40">
                <span className="h-5 w-5 animate-spin rounded-full border-2 border-white border-t-transparent" />
              </span>
            ) : null}
            {item.status === "error" ? <span className="absolute inset-x-0 bottom-0 bg-red-600/80 text-center text-[10px] text-white">!</span> : null}
            <button type="button" onClick={() => onRemove(item.id)} aria-label={m.express.imageRemove} className="absolute right-0.5 top-0.5 rounded-full bg-black/50 p-0.5 text-white">
              <Icon name="close" className="h-3 w-3" />
            </button>
          </li>
        ))}
      </ul>
      <ol className="mb-2 space-y-1 text-sm" aria-label={m.express.imageSteps} aria-live="polite">
        {uploads.map((item, index) => (
          <li
            key={item.id}
            data-testid="image-step"
            className={`flex items-center gap-2 ${item.status === "error" ? "text-red-600" : item.status === "done" ? "text-slate-600" : "text-brand"}`}
          >
            {item.status === "pending" ? <span className="h-3.5 w-3.5 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" /> : null}
            <span>
              {m.express.imageLabel.replace("{n}", String(index + 1))}：{upload.stepText(item.step, places.find((place) => place.uploadId === item.uploadId))}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}
