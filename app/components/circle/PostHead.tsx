import type { PostView } from "~/server/forum/posts.server";
import { Avatar } from "./Avatar";
import { CategoryTag, StatusBadge, TitleTag } from "./Badges";

/** A post's author line (avatar, name, time, status badge) and its tags: the card's and the detail page's top. */
export function PostHead({ post, authorId, mineLabel, wrapTags = false }: { post: PostView; authorId: string; mineLabel: string; wrapTags?: boolean }) {
  return (
    <>
      <header className="flex items-center gap-2.5">
        <Avatar author={post.author} />
        <div className="min-w-0 flex-1">
          <p id={authorId} className="truncate text-sm font-semibold text-slate-900">
            {post.author.name}
            {post.author.isMine && post.author.anonymous ? <span className="ml-1 text-xs font-normal text-slate-500">（{mineLabel}）</span> : null}
          </p>
          <p className="text-xs text-slate-500">
            <time dateTime={post.createdAt}>{post.time}</time>
          </p>
        </div>
        <StatusBadge status={post.status} />
      </header>
      <div className={`flex min-w-0 items-center gap-1.5${wrapTags ? " flex-wrap" : ""}`}>
        <CategoryTag name={post.categoryName} />
        {post.title ? <TitleTag title={post.title} /> : null}
      </div>
    </>
  );
}
