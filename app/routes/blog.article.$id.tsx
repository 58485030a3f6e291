import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { ArticleBody, ArticleMeta, ArticleTags, NoticeBanner } from "~/components/content/ArticleBody";
import { ErrorScreen } from "~/components/ErrorScreen";
import { Page } from "~/components/Page";
import { Glyph } from "~/components/circle/glyphs";
import { useEffect } from "react";
import { findSampleArticle } from "~/lib/content/blog";
import { app as appMessages } from "~/lib/messages/app";
import { blog as blogMessages } from "~/lib/messages/blog";
import { errors as errorsMessages } from "~/lib/messages/errors";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { titles as titlesMessages } from "~/lib/messages/titles";
import type { RouteHandle } from "~/root";

const msg = { app: appMessages, blog: blogMessages, errors: errorsMessages, postDetail: postDetailMessages, titles: titlesMessages };

/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export async function loader({ params }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  const article = /^\d{1,6}$/.test(id) ? findSampleArticle(Number(id)) : undefined;
  if (!article) throw new Response("Not Found", { status: 404 });
  return { article };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.article.title ?? msg.errors.articleNotFound} · ${msg.app.name}` },
  ...(data ? [{ name: "description", content: data.article.excerpt }] : []),
];

/**
 * The share card without React: public/share-card.js (a plain deferred script) reads
 * these data-* attributes, sets the card through the JS-SDK inside the messenger, and shows the
 * button, which copies the link. Without JavaScript the button stays hidden.
 */
function ShareButton({ id, title, desc }: { id: number; title: string; desc: string }) {
  // Only when this page is hydrated and was reached by a client-side navigation (the script in
  // the first HTML did not run): load it, or run it again.
  useEffect(() => {
    const init = (window as unknown as { campusShareCard?: () => void }).campusShareCard;
    if (init) init();
    else if (!document.querySelector('script[src="/share-card.js"]')) {
      const script = document.createElement("script");
      script.src = "/share-card.js";
      document.head.appendChild(script);
    }
  }, [id]);
  return (
    <>
      <button
        type="button"
        hidden
        className="rounded-full p-1.5 hover:bg-white/10"
        aria-label={msg.postDetail.share}
        data-share-title={title}
        data-share-desc={desc}
        data-share-link={`/blog/article/${id}`}
        data-share-img="/favicon.svg"
        data-copied={msg.postDetail.linkCopied}
        data-copy-failed={msg.postDetail.copyFailed}
      >
        <Glyph name="share" className="h-5 w-5" />
      </button>
      <script src="/share-card.js" defer />
    </>
  );
}

export default function BlogArticle() {
  const { article } = useLoaderData<typeof loader>();
  return (
    <Page title={msg.titles.article} back="/blog" actions={<ShareButton key={article.id} id={article.id} title={article.title} desc={article.excerpt} />}>
      <NoticeBanner icon="sparkle">{msg.blog.welcome}</NoticeBanner>

      <article className="card space-y-4 px-4 py-5">
        <header className="space-y-2 border-b border-slate-100 pb-4">
          <p className="text-xs font-medium text-brand">{article.category}</p>
          <h2 className="text-xl font-semibold leading-8 text-slate-900">{article.title}</h2>
          <ArticleMeta article={article} author />
        </header>
        <ArticleBody blocks={article.body} />
        <footer className="border-t border-slate-100 pt-4">
          <ArticleTags tags={article.tags} />
        </footer>
      </article>

      <Link to="/blog" className="btn-ghost w-full">
        {msg.blog.backToList}
      </Link>
      <p
        role="status"
        hidden
        data-share-status
        className="fixed inset-x-4 top-14 z-40 !mt-0 mx-auto max-w-sm rounded-full bg-slate-900/90 px-4 py-2 text-center text-sm text-white shadow-lg"
      />
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorScreen title={msg.errors.articleNotFound} body={msg.blog.notFoundHint} code={404} />;
  }
  return (
    <ErrorScreen
      title={msg.errors.serverErrorTitle}
      body={msg.errors.serverErrorBody}
      code={isRouteErrorResponse(error) ? error.status : 500}
    />
  );
}
