import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { Toast } from "~/components/Toast";
import { FieldError } from "~/components/FieldError";
import { Icon } from "~/components/icons";
import { Glyph } from "~/components/circle/glyphs";
import { Page, useHydrated } from "~/components/Page";
import { FailedCard } from "~/components/FailedCard";
import { DRAFT_STORAGE_KEY, IMAGE_ACCEPT, IMAGE_MAX_BYTES, isImageType, POST_MAX_IMAGES, POST_MAX_LENGTH, UPLOAD_GAP_MS, UPLOAD_TIMEOUT_MS } from "~/lib/forum";
import { app as appMessages } from "~/lib/messages/app";
import { errors as errorsMessages } from "~/lib/messages/errors";
import { publish as publishMessages } from "~/lib/messages/publish";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { PublishPostSchema, type PublishPostFields } from "~/lib/schemas/forum";
import { publishAction, publishPage, type PublishAnswer } from "./publish.server";
import type { RouteHandle } from "~/root";


const msg = { app: appMessages, errors: errorsMessages, publish: publishMessages, titles: titlesMessages };

/** A POST sent after the session ended keeps what was typed for after the login (the draft stash). */
export const handle: RouteHandle = { keepsDraft: true };

export const meta: MetaFunction = () => [{ title: `${msg.titles.publishPost} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  // HTML constraints from the form's schema, computed here so zod stays off the page (decision 026).
  return { ...(await publishPage(request)), constraint: getZodConstraint(PublishPostSchema) };
}

type Uploaded = { url: string; thumbUrl: string };

/** Publishes (see publishAction: images uploaded by the page's JS, or files chosen without JS). */
export async function action({ request, context }: ActionFunctionArgs) {
  return publishAction(request, context);
}

type Item = {
  id: string;
  name: string;
  status: "queued" | "uploading" | "done" | "error";
  progress: number;
  url?: string;
  thumbUrl?: string;
  error?: string;
  file?: File;
};

type Draft = { content: string; categoryId: number | null; images: Uploaded[]; visibility: "public"; isAnonymous: boolean; timestamp: number };

function readDraft(): Draft | null {
  try {
    const draft = JSON.parse(localStorage.getItem(DRAFT_STORAGE_KEY) ?? "null") as Draft | null;
    return draft && typeof draft.content === "string" ? draft : null;
  } catch {
    return null;
  }
}

/** One image to POST /api/upload/image, with progress and the 30-second time-out. */
function uploadImage(file: File, onProgress: (percent: number) => void) {
  return new Promise<Uploaded>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/upload/image");
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = xhr.response as { success?: boolean; message?: string; data?: { file_url: string; thumb_url: string } } | null;
      if (xhr.status === 200 && body?.success && body.data) resolve({ url: body.data.file_url, thumbUrl: body.data.thumb_url });
      else reject(new Error(body?.message || `${msg.publish.uploadFailed} (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error(msg.publish.network));
    xhr.ontimeout = () => reject(new Error(msg.publish.uploadTimeout));
    const data = new FormData();
    data.append("file", file);
    xhr.send(data);
  });
}

let counter = 0;

export default function PublishPost() {
  const { categories, warning, categoryId: preselected, constraint, draft: stashed } = useLoaderData<typeof loader>();
  const actionData = useActionData<PublishAnswer>();
  const navigation = useNavigation();
  const [form, fields] = useForm<PublishPostFields>({ id: "publish-form", lastResult: actionData?.result, constraint, onSubmit: check });
  // A draft the server kept when the session had ended (restored by the loader, with or without JS).
  const serverDraft = actionData ? null : stashed;
  const initialCategory = Number(fields.categoryId.initialValue) || serverDraft?.categoryId || preselected;

  const [content, setContent] = useState(fields.content.initialValue ?? serverDraft?.content ?? "");
  const [categoryId, setCategoryId] = useState<number | null>(initialCategory || null);
  const [anonymous, setAnonymous] = useState(serverDraft ? serverDraft.isAnonymous : fields.isAnonymous.initialValue === "on");
  const [items, setItems] = useState<Item[]>(() => (actionData?.images ?? serverDraft?.images ?? []).map((image) => ({ id: image.url, name: "", status: "done", progress: 100, ...image })));
  const [clientError, setClientError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(serverDraft ? msg.publish.draftRestored : null);
  const hydrated = useHydrated();
  const restored = useRef(false);
  const lastUploadEnd = useRef(0);

  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/publish-post") === true;
  const busy = items.some((item) => item.status === "queued" || item.status === "uploading");
  const done = items.filter((item) => item.status === "done");

  // Restore the draft once (unless the server just answered a submission), then save every change.
  useEffect(() => {
    if (!actionData && !serverDraft) {
      const draft = readDraft();
      if (draft && (draft.content || draft.images.length > 0)) {
        setContent(draft.content);
        if (draft.categoryId && categories.some((category) => category.id === draft.categoryId)) setCategoryId(draft.categoryId);
        setAnonymous(Boolean(draft.isAnonymous));
        setItems(draft.images.slice(0, POST_MAX_IMAGES).map((image) => ({ id: image.url, name: "", status: "done", progress: 100, ...image })));
        setNotice(msg.publish.draftRestored);
      }
    }
    restored.current = true;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const doneKey = done.map((item) => item.url).join(",");
  useEffect(() => {
    if (!restored.current) return;
    try {
      if (!content && !doneKey) localStorage.removeItem(DRAFT_STORAGE_KEY);
      else {
        const draft: Draft = {
          content,
          categoryId,
          images: done.map((item) => ({ url: item.url!, thumbUrl: item.thumbUrl! })),
          visibility: "public",
          isAnonymous: anonymous,
          timestamp: Date.now(),
        };
        localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
      }
    } catch {
      // storage full or blocked: the draft is a convenience
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [content, categoryId, anonymous, doneKey]);

  // A successful publish redirects to the circle with its notice: only then is the draft done with.
  // A redirect to the login page (a session replaced on another device) keeps it for after the login.
  useEffect(() => {
    if (navigation.state === "loading" && navigation.formAction?.startsWith("/publish-post") && isPublishedLocation(navigation.location)) {
      try {
        localStorage.removeItem(DRAFT_STORAGE_KEY);
      } catch {
        // ignore
      }
    }
  }, [navigation]);

  // The upload queue: one image at a time, 200 ms apart.
  useEffect(() => {
    if (items.some((item) => item.status === "uploading")) return;
    const next = items.find((item) => item.status === "queued");
    if (!next?.file) return;
    const wait = Math.max(0, lastUploadEnd.current + UPLOAD_GAP_MS - Date.now());
    const timer = setTimeout(() => {
      const update = (patch: Partial<Item>) => setItems((current) => current.map((item) => (item.id === next.id ? { ...item, ...patch } : item)));
      update({ status: "uploading", progress: 0 });
      uploadImage(next.file!, (progress) => update({ progress }))
        .then((image) => update({ status: "done", progress: 100, file: undefined, ...image }))
        .catch((error: Error) => {
          update({ status: "error", error: error.message, file: undefined });
          setClientError(`${next.name}: ${error.message}`);
        })
        .finally(() => {
          lastUploadEnd.current = Date.now();
        });
    }, wait);
    return () => clearTimeout(timer);
  }, [items]);

  function pickFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    event.target.value = ""; // the page uploads them itself; the form must not send them again
    const room = POST_MAX_IMAGES - items.filter((item) => item.status !== "error").length;
    const errors: string[] = [];
    const added: Item[] = [];
    for (const file of files) {
      if (!isImageType(file.type)) errors.push(`${file.name}: ${msg.publish.imagesOnly}`);
      else if (file.size > IMAGE_MAX_BYTES) errors.push(`${file.name}: ${msg.publish.imageTooLarge}`);
      else if (added.length >= room) errors.push(`${file.name}: ${msg.publish.tooManyImages}`);
      else added.push({ id: `local-${(counter += 1)}`, name: file.name, status: "queued", progress: 0, file });
    }
    setClientError(errors[0] ?? null);
    if (added.length > 0) setItems((current) => [...current, ...added]);
  }

  function check(event: FormEvent<HTMLFormElement>) {
    const problem = busy
      ? msg.publish.uploadInProgress
      : !content.trim()
        ? msg.publish.contentRequired
        : !categoryId
          ? msg.publish.categoryRequired
          : content.length > POST_MAX_LENGTH
            ? msg.publish.contentTooLong
            : done.length > POST_MAX_IMAGES
              ? msg.publish.tooManyImages
              : null;
    setClientError(problem);
    if (problem) event.preventDefault();
  }

  const contentErrors = fields.content.errors ?? [];
  const categoryErrors = fields.categoryId.errors ?? [];
  const serverErrors = Object.values(form.allErrors)
    .flat()
    .filter((message) => !contentErrors.includes(message) && !categoryErrors.includes(message));
  const banner = clientError ?? (serverErrors.length > 0 ? (form.errors?.includes(msg.publish.noPermission) ? msg.publish.noPermission : serverErrors.join("；")) : null);

  return (
    <Page title={msg.titles.publishPost} back="/circle">
      {warning ? (
        <p role="alert" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-700">
          {warning}
        </p>
      ) : null}
      {serverDraft?.droppedImages ? (
        <p role="alert" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-800">
          {msg.publish.imagesNotKept(serverDraft.droppedImages)}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-3">
        <fieldset className="card">
          <legend className="sr-only">{msg.publish.category}</legend>
          <p className="mb-2 text-sm font-medium text-slate-700" aria-hidden="true">
            {msg.publish.category}
          </p>
          <div className="flex flex-wrap gap-2">
            {categories.map((category) => (
              <label key={category.id} className="cursor-pointer">
                <input
                  type="radio"
                  name={fields.categoryId.name}
                  value={category.id}
                  checked={categoryId === category.id}
                  onChange={() => setCategoryId(category.id)}
                  className="peer sr-only"
                />
                <span className="block rounded-full border border-slate-200 px-3.5 py-1.5 text-sm text-slate-600 peer-checked:border-brand peer-checked:bg-brand peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-brand/40">
                  {category.name}
                </span>
              </label>
            ))}
          </div>
          {categoryErrors.map((message) => (
            <FieldError key={message} field={{ errors: [message] }} />
          ))}
        </fieldset>

        <section className="card space-y-3">
          <label className="flex items-center gap-3">
            <span className="flex-1">
              <span className="block text-sm font-medium text-slate-800">{msg.publish.anonymous}</span>
              <span className="block text-xs text-slate-500">{msg.publish.anonymousHint}</span>
            </span>
            <input type="checkbox" name="isAnonymous" checked={anonymous} onChange={(event) => setAnonymous(event.target.checked)} className="peer sr-only" role="switch" />
            <span
              aria-hidden="true"
              className="relative h-6 w-11 shrink-0 rounded-full bg-slate-300 transition after:absolute after:left-0.5 after:top-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:shadow after:transition peer-checked:bg-brand peer-checked:after:translate-x-5 peer-focus-visible:ring-2 peer-focus-visible:ring-brand/40"
            />
          </label>

          <div>
            <label htmlFor="post-content" className="sr-only">
              {msg.publish.contentPlaceholder}
            </label>
            <textarea
              id="post-content"
              name="content"
              rows={7}
              maxLength={POST_MAX_LENGTH}
              value={content}
              onChange={(event) => setContent(event.target.value)}
              placeholder={msg.publish.contentPlaceholder}
              className="field-input resize-none leading-6"
              aria-invalid={contentErrors.length > 0 || undefined}
              aria-describedby="post-content-count"
            />
            <div className="mt-1 flex items-start gap-2">
              <div className="flex-1">
                {contentErrors.map((message) => (
                  <FieldError key={message} field={{ errors: [message] }} className="mt-0" />
                ))}
              </div>
              <p id="post-content-count" className={`text-xs ${content.length >= POST_MAX_LENGTH ? "text-red-600" : "text-slate-500"}`}>
                {content.length}/{POST_MAX_LENGTH}
              </p>
            </div>
          </div>

          <ul className="grid grid-cols-3 gap-2" aria-label={msg.publish.addImage}>
            {items.map((item) => (
              <li key={item.id} className="relative aspect-square overflow-hidden rounded-xl bg-slate-100">
                {item.status === "done" ? (
                  <label className="block h-full w-full cursor-pointer">
                    <input type="checkbox" name="images" value={item.url} defaultChecked className="peer sr-only" />
                    <img src={item.thumbUrl} alt={item.name || msg.publish.imageAlt} className="h-full w-full object-cover peer-[:not(:checked)]:opacity-30" />
                  </label>
                ) : (
                  <div className="flex h-full flex-col items-center justify-center gap-1 p-2 text-center text-xs text-slate-500">
                    {item.status === "error" ? (
                      <>
                        <Icon name="alert" className="h-5 w-5 text-red-500" />
                        <span className="line-clamp-2 break-all text-red-600">{item.error}</span>
                      </>
                    ) : (
                      <>
                        <span>{item.status === "queued" ? msg.publish.queued : msg.publish.uploading}</span>
                        <span className="h-1.5 w-4/5 overflow-hidden rounded-full bg-slate-200">
                          <span className="block h-full bg-brand transition-all" style={{ width: `${item.progress}%` }} />
                        </span>
                        <span role="progressbar" aria-valuenow={item.progress} aria-valuemin={0} aria-valuemax={100} aria-label={item.name}>
                          {item.progress}%
                        </span>
                      </>
                    )}
                    <span className="line-clamp-1 break-all text-[11px] text-slate-500">{item.name}</span>
                  </div>
                )}
                {hydrated && item.status !== "uploading" ? (
                  <button
                    type="button"
                    onClick={() => setItems((current) => current.filter((other) => other.id !== item.id))}
                    className="absolute right-1 top-1 rounded-full bg-black/50 p-0.5 text-white"
                    aria-label={`${msg.publish.removeImage} ${item.name}`}
                  >
                    <Icon name="close" className="h-4 w-4" />
                  </button>
                ) : null}
              </li>
            ))}
            {items.filter((item) => item.status !== "error").length < POST_MAX_IMAGES ? (
              <li>
                <label className="flex aspect-square cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed border-slate-200 text-slate-500 focus-within:border-brand">
                  <Glyph name="image" className="h-7 w-7" />
                  <span className="text-xs">
                    {msg.publish.addImage} {done.length}/{POST_MAX_IMAGES}
                  </span>
                  <input type="file" name="files" accept={IMAGE_ACCEPT} multiple onChange={pickFiles} className="sr-only" />
                </label>
              </li>
            ) : null}
          </ul>
        </section>

        {banner ? (
          <p role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-sm text-red-600">
            {banner}
          </p>
        ) : null}

        <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
          {submitting ? msg.publish.publishing : msg.publish.publishButton}
        </button>
      </Form>
      {/* Last: a fixed toast placed first would push the page down by space-y's margin. */}
      {notice ? <Toast text={notice} onHide={() => setNotice(null)} /> : null}
    </Page>
  );
}

function isPublishedLocation(location: { pathname: string; search: string }) {
  return location.pathname === "/circle" && new URLSearchParams(location.search).get("notice") === "published";
}

/** No answer from the server (or a failure it could not describe). The draft is kept in the browser. */
export function ErrorBoundary() {
  const error = useRouteError();
  const reason = isRouteErrorResponse(error)
    ? String(error.status)
    : error instanceof Error && /fetch|network|load failed/i.test(error.message)
      ? msg.publish.network
      : msg.errors.serverErrorBody;
  return (
    <Page title={msg.titles.publishPost} back="/circle">
      <FailedCard failed={msg.publish.publishFailed} reason={reason} href="/publish-post" action={msg.app.back} />
    </Page>
  );
}
