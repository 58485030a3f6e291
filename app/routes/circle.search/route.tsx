import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/circle/Avatar";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import type { Segment } from "~/lib/circle-search";
import { app as appMessages } from "~/lib/messages/app";
import { circle as circleMessages } from "~/lib/messages/circle";
import { searchPage } from "./search-page.server";

const msg = { app: appMessages, circle: circleMessages };

export const meta: MetaFunction = () => [{ title: `${msg.circle.searchResultsTitle} · ${msg.app.name}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return searchPage(request, context?.clientIp as string | undefined);
}

/** Text with its matches in <mark>: the segments are plain text (React escapes them), never HTML. */
function Marked({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.hit ? (
          <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-inherit">
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}

export default function CircleSearch() {
  const { q, results, fieldError, error } = useLoaderData<typeof loader>();
  const pageUrl = (page: number) => `/circle/search?${new URLSearchParams({ q, page: String(page) })}`;
  return (
    <Page title={msg.circle.searchResultsTitle} back="/circle">
      {/* A GET form: the same page with or without JavaScript. */}
      <Form method="get" role="search" className="space-y-1">
        <div className="flex items-center gap-2 rounded-full bg-white px-4 py-1.5 text-sm shadow-sm">
          <Icon name="search" className="h-4 w-4 shrink-0 text-slate-500" />
          <input
            type="search"
            name="q"
            defaultValue={q}
            maxLength={64}
            placeholder={msg.circle.searchPlaceholder}
            aria-label={msg.circle.searchLabel}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? "q-error" : undefined}
            className="min-w-0 flex-1 bg-transparent py-1 outline-none"
          />
          <button type="submit" className="shrink-0 text-brand">
            {msg.circle.search}
          </button>
        </div>
        {fieldError ? (
          <p id="q-error" role="alert" className="px-4 text-xs text-red-600">
            {fieldError}
          </p>
        ) : null}
      </Form>

      {error ? (
        <p role="alert" className="card text-center text-sm text-red-600">
          {error}
        </p>
      ) : null}

      {q && !fieldError && !error && results.hits.length === 0 ? (
        <section className="card py-10 text-center text-sm text-slate-500">{msg.circle.searchNoResults}</section>
      ) : null}

      {results.hits.length > 0 ? (
        <ol className="space-y-3" aria-label={msg.circle.searchResultsTitle}>
          {results.hits.map((hit) => (
            <li key={`${hit.kind}-${hit.commentId ?? hit.postId}`}>
              <Link to={hit.commentId ? `/post/${hit.postId}#comment-${hit.commentId}` : `/post/${hit.postId}`} className="card block space-y-1.5">
                <p className="flex items-center gap-2 text-xs text-slate-500">
                  <Avatar author={hit.author} size="sm" />
                  <span className="font-medium text-slate-700">{hit.author.name}</span>
                  <span className="rounded bg-slate-100 px-1 text-[10px] text-slate-600">{hit.kind === "comment" ? msg.circle.searchInComment : msg.circle.searchInPost}</span>
                  <span className="flex-1" />
                  <time dateTime={hit.createdAt}>{hit.time}</time>
                </p>
                {hit.title ? (
                  <p className="font-semibold text-slate-900">
                    <Marked segments={hit.title} />
                  </p>
                ) : null}
                <p className="break-words text-sm leading-6 text-slate-700">
                  <Marked segments={hit.snippet} />
                </p>
              </Link>
            </li>
          ))}
        </ol>
      ) : null}

      {results.page > 1 || results.hasMore ? (
        <nav className="flex justify-center gap-4 text-sm">
          {results.page > 1 ? (
            <Link to={pageUrl(results.page - 1)} className="btn-ghost px-4">
              ‹
            </Link>
          ) : null}
          {results.hasMore ? (
            <Link to={pageUrl(results.page + 1)} className="btn-ghost px-4">
              {msg.circle.loadMore}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </Page>
  );
}
