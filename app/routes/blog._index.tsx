import { json } from "@remix-run/node";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ArticleBody, ArticleMeta, ArticleTags, NoticeBanner } from "~/components/content/ArticleBody";
import { ShareButton, ShareStatus } from "~/components/content/ShareButton";
import type { ArticleSummary } from "~/components/content/ArticleBody";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { isMessengerBrowser } from "~/lib/browser";
import type { Article } from "~/lib/content/blog";
import { findTutorial, pythonTutorials } from "~/lib/content/blog";
import { app as appMessages } from "~/lib/messages/app";
import { blog as blogMessages } from "~/lib/messages/blog";
import { titles as titlesMessages } from "~/lib/messages/titles";
import type { RouteHandle } from "~/root";

const msg = { app: appMessages, blog: blogMessages, titles: titlesMessages };

// The list of Python tutorials with a reader dialog. The dialog is a URL (/blog?read=<id>): the
// loader returns that article and the page renders it over the list, so it opens without
// JavaScript too, and with JavaScript as a client navigation that keeps the scroll position.

const LIST_PATH = "/blog";

type Reader = { found: true; article: Article } | { found: false };

/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request }: LoaderFunctionArgs) {
  const read = new URL(request.url).searchParams.get("read");
  // Bodies stay on the server until an article is opened; the list needs only the summaries.
  const articles: ArticleSummary[] = pythonTutorials.map(({ body: _body, ...summary }) => summary);
  const inMessenger = isMessengerBrowser(request.headers.get("User-Agent"));
  if (read === null) return json({ articles, inMessenger, reader: null as Reader | null });
  const article = /^\d{1,6}$/.test(read) ? findTutorial(Number(read)) : undefined;
  const reader: Reader = article ? { found: true, article } : { found: false };
  return json({ articles, inMessenger, reader: reader as Reader | null }, { status: article ? 200 : 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const page = data?.reader?.found ? data.reader.article.title : msg.titles.blog;
  return [{ title: `${page} · ${msg.app.name}` }];
};

export default function BlogIndex() {
  const { articles, inMessenger, reader } = useLoaderData<typeof loader>();
  // The list's share card: the series, its introduction and the default card image.
  const share = reader?.found
    ? { link: `${LIST_PATH}?read=${reader.article.id}`, title: reader.article.title, desc: reader.article.excerpt }
    : { link: LIST_PATH, title: `${msg.titles.blog} · ${msg.app.name}`, desc: msg.blog.intro };
  return (
    <Page title={msg.titles.blog} actions={<ShareButton key={share.link} {...share} />}>
      {inMessenger ? <NoticeBanner>{msg.blog.openInBrowser}</NoticeBanner> : null}

      <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-brand to-brand-dark p-4 text-white shadow-sm">
        <span className="inline-flex items-center gap-1 rounded-full bg-white/20 px-2 py-0.5 text-xs">
          <Icon name="code" className="h-3.5 w-3.5" />
          {msg.blog.seriesLabel}
        </span>
        <p className="mt-2 text-sm leading-6 text-white/90">{msg.blog.intro}</p>
        <Icon name="book" className="pointer-events-none absolute -bottom-3 -right-2 h-20 w-20 text-white/10" />
      </section>

      <ol className="space-y-3">
        {articles.map((article, index) => (
          <li key={article.id}>
            <ArticleCard article={article} index={index + 1} />
          </li>
        ))}
      </ol>

      {reader ? <ReaderDialog reader={reader} /> : null}
      <ShareStatus />
    </Page>
  );
}

function ArticleCard({ article, index }: { article: ArticleSummary; index: number }) {
  return (
    <Link
      to={`${LIST_PATH}?read=${article.id}`}
      preventScrollReset
      className="card block space-y-2 transition active:bg-slate-50"
    >
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-xl bg-brand-soft text-sm font-bold text-brand" aria-hidden="true">
          {String(index).padStart(2, "0")}
        </span>
        <h2 className="text-[15px] font-semibold leading-6 text-slate-900">{article.title}</h2>
      </div>
      <p className="line-clamp-2 text-sm leading-6 text-slate-500">{article.excerpt}</p>
      <ArticleTags tags={article.tags} />
      <div className="flex items-center justify-between gap-2 pt-1">
        <ArticleMeta article={article} />
        <span className="inline-flex shrink-0 items-center text-xs font-medium text-brand">
          {msg.blog.readMore}
          <Icon name="chevron" className="h-4 w-4" />
        </span>
      </div>
    </Link>
  );
}

function ReaderDialog({ reader }: { reader: Reader }) {
  const navigate = useNavigate();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = "reader-title";

  // The page ships no JavaScript on a first visit: public/static/dialog.js moves focus into the
  // dialog and lets Escape close it. Opened inside the running app (a client-side navigation), this
  // effect does the same (React does not run a script element it renders).
  useEffect(() => {
    dialogRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(LIST_PATH, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [navigate, reader]);

  return (
    <div className="fixed inset-0 z-40 !mt-0 flex items-end justify-center">
      <Link to={LIST_PATH} preventScrollReset tabIndex={-1} aria-hidden="true" className="absolute inset-0 bg-slate-900/50" />
      <div
        ref={dialogRef}
        data-static-dialog=""
        data-close={LIST_PATH}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="relative flex max-h-[92vh] w-full max-w-screen-sm flex-col rounded-t-3xl bg-white shadow-2xl outline-none"
      >
        <div className="flex items-start gap-3 border-b border-slate-100 px-4 pb-3 pt-4">
          <div className="min-w-0 flex-1 space-y-1.5">
            {reader.found ? (
              <>
                <p className="text-xs font-medium text-brand">{reader.article.category}</p>
                <h2 id={titleId} className="text-lg font-semibold leading-7 text-slate-900">
                  {reader.article.title}
                </h2>
                <ArticleMeta article={reader.article} author />
              </>
            ) : (
              <h2 id={titleId} className="text-lg font-semibold leading-7 text-slate-900">
                {msg.blog.articleNotFound}
              </h2>
            )}
          </div>
          <Link
            to={LIST_PATH}
            preventScrollReset
            className="-mr-1 rounded-full p-1.5 text-slate-500 hover:bg-slate-100"
            aria-label={msg.blog.close}
          >
            <Icon name="close" className="h-5 w-5" />
          </Link>
        </div>
        <div className="overflow-y-auto overscroll-contain px-4 pb-[max(1.5rem,env(safe-area-inset-bottom))] pt-4">
          {reader.found ? (
            <>
              <ArticleBody blocks={reader.article.body} />
              <div className="mt-5 space-y-4">
                <ArticleTags tags={reader.article.tags} />
                <Link to={LIST_PATH} preventScrollReset className="btn-ghost w-full">
                  {msg.blog.backToList}
                </Link>
              </div>
            </>
          ) : (
            <div className="space-y-4 py-6 text-center">
              <p className="text-sm text-slate-500">{msg.blog.notFoundHint}</p>
              <Link to={LIST_PATH} preventScrollReset className="btn-primary">
                {msg.blog.backToList}
              </Link>
            </div>
          )}
        </div>
      </div>
      <script src="/static/dialog.js" async />
    </div>
  );
}
