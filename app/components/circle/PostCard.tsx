import { MORE_IMAGES_VEIL } from "~/lib/image-grid";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Icon } from "~/components/icons";
import { Glyph } from "./glyphs";
import { circle as circleMessages } from "~/lib/messages/circle";
import type { PostView } from "~/server/forum/posts.server";
import { PostHead } from "./PostHead";

const msg = { circle: circleMessages };

/** A post in a list: author, tags, an excerpt, up to 3 thumbnails, time and counts. The whole card opens the post. */
export function PostCard({ post, extra }: { post: PostView; extra?: ReactNode }) {
  return (
    <article className="card space-y-2.5 p-0" aria-labelledby={`post-${post.id}-author`}>
      <Link to={`/post/${post.id}`} className="block space-y-2.5 p-4 pb-3 active:bg-slate-50" prefetch="intent">
        <PostHead post={post} authorId={`post-${post.id}-author`} mineLabel={msg.circle.mine} />
        <p className="line-clamp-3 whitespace-pre-line break-words text-[15px] leading-6 text-slate-800">{post.content}</p>
        {post.images.length > 0 ? (
          <div className="grid grid-cols-3 gap-1.5">
            {post.images.map((image, index) => (
              <span key={image.url} className="relative block aspect-square overflow-hidden rounded-lg bg-slate-100">
                <img src={image.thumbUrl} alt="" loading="lazy" className="h-full w-full object-cover" />
                {index === post.images.length - 1 && post.imageCount > post.images.length ? (
                  <span
                    className="absolute inset-0 flex items-center justify-center text-lg font-bold text-white [text-shadow:0_1px_2px_rgb(0_0_0/0.5)]"
                    style={{ backgroundColor: `rgb(0 0 0 / ${MORE_IMAGES_VEIL})` }}
                  >
                    +{post.imageCount - post.images.length}
                  </span>
                ) : null}
              </span>
            ))}
          </div>
        ) : null}
        <footer className="flex items-center gap-4 pt-0.5 text-xs text-slate-500">
          <Count icon="eye" label={msg.circle.views} value={post.viewCount} />
          <Count icon="chat" label={msg.circle.comments} value={post.commentCount} />
          <Count icon="heart" label={msg.circle.likes} value={post.likeCount} active={post.isLiked} />
        </footer>
      </Link>
      {extra}
    </article>
  );
}

function Count({ icon, label, value, active = false }: { icon: "eye" | "chat" | "heart"; label: string; value: number; active?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-1 ${active ? "text-rose-500" : ""}`}>
      {icon === "eye" ? <Glyph name="eye" className="h-4 w-4" /> : <Icon name={icon} className="h-4 w-4" />}
      <span className="sr-only">{label}</span>
      {value}
    </span>
  );
}
