import type { ReactNode } from "react";
import type { Article, Block } from "~/lib/content/blog";
import { blog as blogMessages } from "~/lib/messages/blog";
import { Icon } from "../icons";

const msg = { blog: blogMessages };

/** What a list card needs: an article without its body. */
export type ArticleSummary = Omit<Article, "body">;

/** An article's blocks: paragraphs, subheadings, code (scrolls sideways) and bullet lists. */
export function ArticleBody({ blocks }: { blocks: Block[] }) {
  return (
    <div className="space-y-4 text-[15px] leading-7 text-slate-700">
      {blocks.map((block, index) => {
        switch (block.type) {
          case "p":
            return <p key={index}>{block.text}</p>;
          case "h2":
            return (
              <h3 key={index} className="flex items-center gap-2 pt-2 text-base font-semibold text-slate-900">
                <span className="h-4 w-1 rounded-full bg-brand" aria-hidden="true" />
                {block.text}
              </h3>
            );
          case "code":
            return (
              <figure key={index} className="overflow-hidden rounded-xl bg-slate-900">
                <figcaption className="flex items-center gap-1.5 border-b border-white/10 px-3 py-1.5 text-xs text-slate-500">
                  <Icon name="code" className="h-3.5 w-3.5" />
                  <span className="sr-only">{msg.blog.codeLabel}</span>
                  {block.lang}
                </figcaption>
                {/* Focusable so a keyboard can scroll long lines sideways. */}
                <pre tabIndex={0} className="overflow-x-auto p-3 text-[13px] leading-6 text-slate-100 outline-none focus-visible:ring-2 focus-visible:ring-brand">
                  <code className={`language-${block.lang}`}>{block.text}</code>
                </pre>
              </figure>
            );
          case "ul":
            return (
              <ul key={index} className="space-y-2 rounded-xl bg-slate-50 p-3 text-[14px] leading-6">
                {block.items.map((item) => (
                  <li key={item} className="flex gap-2">
                    <span className="mt-2.5 h-1.5 w-1.5 shrink-0 rounded-full bg-brand" aria-hidden="true" />
                    <span>{item}</span>
                  </li>
                ))}
              </ul>
            );
        }
      })}
    </div>
  );
}

/** Date and reading time on one line. */
export function ArticleMeta({ article, author = false }: { article: ArticleSummary; author?: boolean }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
      {author ? (
        <span>
          <span className="sr-only">{msg.blog.author}</span>
          {article.author}
        </span>
      ) : null}
      <span>
        <span className="sr-only">{msg.blog.publishedOn}</span>
        <time dateTime={article.date}>{article.date}</time>
      </span>
      <span className="inline-flex items-center gap-1">
        <Icon name="clock" className="h-3.5 w-3.5" />
        <span className="sr-only">{msg.blog.readTime}</span>
        {article.readTime}
      </span>
    </p>
  );
}

export function ArticleTags({ tags }: { tags: string[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label={msg.blog.tags}>
      {tags.map((tag) => (
        <li key={tag} className="rounded-full bg-brand-soft px-2 py-0.5 text-xs text-brand-dark">
          #{tag}
        </li>
      ))}
    </ul>
  );
}

/** A tinted one-line notice (the blog's welcome and 'open in browser' hints). */
export function NoticeBanner({ children, icon = "info" }: { children: ReactNode; icon?: "info" | "bell" | "sparkle" }) {
  return (
    <div className="flex items-start gap-2 rounded-2xl border border-brand/20 bg-brand-soft px-3 py-2.5 text-sm leading-6 text-brand-dark">
      <Icon name={icon} className="mt-0.5 h-4 w-4 shrink-0" />
      <p>{children}</p>
    </div>
  );
}
