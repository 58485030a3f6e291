import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { ArticleBody, ArticleMeta, ArticleTags, NoticeBanner } from "~/components/content/ArticleBody";
import { ErrorScreen } from "~/components/ErrorScreen";
import { Page } from "~/components/Page";
import { ShareButton, ShareStatus } from "~/components/content/ShareButton";
import { findSampleArticle } from "~/lib/content/blog";
import { app as appMessages } from "~/lib/messages/app";
import { blog as blogMessages } from "~/lib/messages/blog";
import { errors as errorsMessages } from "~/lib/messages/errors";
import { titles as titlesMessages } from "~/lib/messages/titles";
import type { RouteHandle } from "~/root";

const msg = { app: appMessages, blog: blogMessages, errors: errorsMessages, titles: titlesMessages };

/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export async function loader({ params }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  const article = /^\d{1,6}$/.test(id) ? findSampleArticle(Number(id)) : undefined;
  if (!article) throw new Response("Not Found", { status: 404 });
  return { article };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.article.title ?? msg.blog.articleNotFound} · ${msg.app.name}` },
  ...(data ? [{ name: "description", content: data.article.excerpt }] : []),
];

export default function BlogArticle() {
  const { article } = useLoaderData<typeof loader>();
  return (
    <Page title={msg.titles.article} back="/blog" actions={<ShareButton key={article.id} link={`/blog/article/${article.id}`} title={article.title} desc={article.excerpt} />}>
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
      <ShareStatus />
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorScreen title={msg.blog.articleNotFound} body={msg.blog.notFoundHint} code={404} />;
  }
  return (
    <ErrorScreen
      title={msg.errors.serverErrorTitle}
      body={msg.errors.serverErrorBody}
      code={isRouteErrorResponse(error) ? error.status : 500}
    />
  );
}
