import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState, type ChangeEvent } from "react";
import { ADD_PARCEL_HREF, MARKET_ACTION } from "~/lib/market-links";
import { market } from "~/lib/messages/market";
import { Icon } from "../icons";
import { Glyph } from "./glyphs";
import type { UploadStep } from "./upload-images";
import type { Constraints } from "./form-reply";
import { useFetcherToast, useToast } from "./toast-context";

const msg = { market };

const m = msg.market;
export const RECOGNIZE_DEBOUNCE_MS = 1500;
export const HINT_MS = 5000;

export type ExpressProps = {
  messenger: boolean;
  authHref: string;
  smsText: string;
  hydrated: boolean;
  /** The SMS field's constraints, computed from the action's zod schema in the loader. */
  constraint?: Constraints;
};

/** The part of the express tab that needs JavaScript: the SMS form and the screenshot upload. */
export function ExpressTab(props: ExpressProps) {
  return <SmsCard {...props} />;
}

function SmsCard({ messenger, smsText, hydrated, authHref, constraint }: ExpressProps) {
  const fetcher = useFetcher();
  useFetcherToast(fetcher);
  // The text's only refusals (empty, too long) are stopped on the page (the check below, maxLength
  // from the schema); the server's answers are the toast.
  const maxLength = constraint?.text?.maxLength ?? 20000;
  const { show, hint } = useToast();
  const [text, setText] = useState(smsText);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const lastSent = useRef(smsText);
  useEffect(() => setText(smsText), [smsText]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const recognize = (value: string, auto: boolean) => {
    lastSent.current = value;
    fetcher.submit({ intent: "recognize", text: value, ...(auto ? { auto: "1" } : {}) }, { method: "post", action: MARKET_ACTION });
  };
  const onInput = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    if (!messenger) return;
    // Product rules: recognise 1.5 s after typing stops; an emptied textarea clears the list.
    timer.current = setTimeout(() => {
      if (value !== lastSent.current) recognize(value, true);
    }, RECOGNIZE_DEBOUNCE_MS);
  };
  const busy = fetcher.state !== "idle";
  const hintOn = useFlash(hint, HINT_MS);

  return (
    <section className="card space-y-3" aria-labelledby="sms-title">
      <div className="flex items-baseline justify-between">
        <h2 id="sms-title" className="text-base font-semibold">
          {m.express.smsLabel}
        </h2>
        <span className="text-xs text-slate-500">
          {m.express.uploadImage}：{m.express.imagesHint}
        </span>
      </div>
      <fetcher.Form
        method="post"
        action={MARKET_ACTION}
        id="sms"
        onSubmit={(event) => {
          clearTimeout(timer.current);
          if (!text.trim()) {
            event.preventDefault();
            show(m.recognize.emptyText, "error");
          }
        }}
        className="space-y-3"
      >
        <input type="hidden" name="intent" value="recognize" />
        <textarea
          id="sms-text"
          name="text"
          value={text}
          onChange={(event) => onInput(event.target.value)}
          rows={5}
          maxLength={maxLength}
          placeholder={m.express.smsPlaceholder}
          aria-label={m.express.smsLabel}
          aria-describedby="sms-hint"
          className="field-input min-h-[8.5rem] resize-y text-[15px] leading-6"
        />
        <p id="sms-hint" className="-mt-1 text-xs text-slate-500">
          {m.express.smsHint}
        </p>
        <ImageUploads messenger={messenger} hydrated={hydrated} authHref={authHref} />
        <div className="flex items-center gap-3">
          <label
            htmlFor="screenshot-input"
            className="flex h-12 w-12 shrink-0 cursor-pointer items-center justify-center rounded-full bg-brand-soft text-brand transition active:scale-95"
            title={m.express.uploadImage}
          >
            <Glyph name="camera" className="h-6 w-6" />
            <span className="sr-only">{m.express.uploadImage}</span>
          </label>
          <div className="relative">
            <Link
              to={ADD_PARCEL_HREF}
              preventScrollReset
              className={`flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand transition active:scale-95 ${hintOn ? "ring-4 ring-amber-300 animate-pulse" : ""}`}
              aria-label={m.express.manualAdd}
              title={m.express.manualAdd}
            >
              <Glyph name="plus" className="h-6 w-6" />
            </Link>
            {hintOn ? (
              <span role="status" className="absolute left-1/2 top-full z-10 mt-2 w-max -translate-x-1/2 rounded-lg bg-amber-500 px-2 py-1 text-xs text-white shadow">
                {m.recognize.manualHint}
              </span>
            ) : null}
          </div>
          <button type="submit" className="btn-primary h-12 flex-1 whitespace-nowrap px-3 text-sm" disabled={busy}>
            <Icon name="sparkle" className="h-4 w-4" />
            {busy ? m.express.recognizing : m.express.recognize}
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}

/** True for `ms` after `stamp` changes (0 = never). */
function useFlash(stamp: number, ms: number) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (!stamp) return;
    setOn(true);
    const timer = setTimeout(() => setOn(false), ms);
    return () => clearTimeout(timer);
  }, [stamp, ms]);
  return on;
}

export type Upload = { id: number; uploadId: string; url: string; status: "pending" | "done" | "error"; step: UploadStep };

// The thumbnails and the step-by-step progress: loaded with the upload code, when a screenshot is chosen.
const UploadProgress = lazy(() => import("./UploadProgress"));

/**
 * Up to 3 screenshots. Without JavaScript: a multipart form (the server reads them one after
 * another). With JavaScript: each image is shrunk, sent to the product rules' JSON endpoint and followed
 * step by step (upload %, its place in the recognition queue, what was found) on its own line;
 * then the parcels found are added to the list.
 */
function ImageUploads({ messenger, hydrated, authHref }: { messenger: boolean; hydrated: boolean; authHref: string }) {
  const fetcher = useFetcher();
  useFetcherToast(fetcher);
  const { show, flashHint } = useToast();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const worker = useRef<typeof import("./upload-images") | null>(null);
  const navigation = useNavigation();

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const files = Array.from(input.files ?? []);
    input.value = "";
    if (files.length === 0) return;
    if (!messenger) {
      window.location.href = authHref;
      return;
    }
    const upload = (worker.current ??= await import("./upload-images"));
    // A screenshot that failed holds no place among the 3: it goes when new ones are chosen.
    const failed = uploads.filter((item) => item.status === "error");
    const refused = upload.refuseFiles(files, uploads.length - failed.length);
    if (refused) return show(refused, "error");
    for (const item of failed) URL.revokeObjectURL(item.url);
    const stamp = Date.now();
    const added: Upload[] = files.map((file, index) => ({
      id: stamp + index,
      uploadId: `${stamp.toString(36)}-${index}-${Math.random().toString(36).slice(2, 8)}`,
      url: URL.createObjectURL(file),
      status: "pending",
      step: { kind: "shrinking" },
    }));
    setUploads((current) => [...current.filter((item) => item.status !== "error"), ...added]);
    const update = (id: number, change: Partial<Upload>) =>
      setUploads((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));
    // All images go at once and wait their turn on the server, each with its own progress.
    const foundPerImage = files.map(() => [] as unknown[]);
    await Promise.all(
      files.map(async (file, index) => {
        const item = added[index]!;
        const status = await upload.recognizeOne(file, item.uploadId, foundPerImage[index]!, (step) => update(item.id, { step }));
        update(item.id, { status });
      }),
    );
    const found = foundPerImage.flat();
    if (found.length > 0) fetcher.submit({ intent: "add-entries", entries: JSON.stringify(found) }, { method: "post", action: MARKET_ACTION });
    else if (foundPerImage.length > 0) {
      show(upload.noCodeMessage, "error");
      flashHint();
    }
  }

  const remove = (id: number) =>
    setUploads((current) => {
      const gone = current.find((upload) => upload.id === id);
      if (gone) URL.revokeObjectURL(gone.url);
      return current.filter((upload) => upload.id !== id);
    });

  const uploadingNoJs = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  return (
    <div>
      {uploads.length > 0 && worker.current ? (
        <Suspense fallback={null}>
          <UploadProgress uploads={uploads} upload={worker.current} onRemove={remove} />
        </Suspense>
      ) : null}
      {/* The screenshot form: a separate multipart form the label above points to. */}
      <div className={hydrated ? "sr-only" : "rounded-xl border border-dashed border-slate-200 p-3"}>
        <label htmlFor="screenshot-input" className="text-sm text-slate-600">
          {m.express.images}
        </label>
        <input
          id="screenshot-input"
          form="screenshot-form"
          type="file"
          name="images"
          accept="image/*"
          multiple
          onChange={hydrated ? onChange : undefined}
          className="mt-1 block w-full text-sm"
        />
        {!hydrated ? (
          <button type="submit" form="screenshot-form" className="btn-ghost mt-2" disabled={uploadingNoJs}>
            {uploadingNoJs ? m.express.recognizing : m.express.imageRecognize}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The multipart form the screenshot input belongs to (outside the SMS form: forms cannot nest). */
export function ScreenshotForm() {
  return <Form id="screenshot-form" method="post" action={MARKET_ACTION} encType="multipart/form-data" preventScrollReset className="hidden" />;
}

