// The reference's second page: ten post cards with the markup /circle draws for its
// list (app/components/circle/PostCard.tsx and PostHead: links, icons, counts, Tailwind classes),
// from a loader without a database. What React and Remix alone cost for a page of that size, so
// that /circle's figure can be read against what its markup costs on a bare Remix app.
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

const SPRITE = "/icon-sprite.svg";

export const meta = () => [{ title: "reference cards" }];

export async function loader() {
  const now = Date.now();
  const posts = Array.from({ length: 10 }, (_, i) => ({
    id: 20005 - i,
    categoryName: "吃瓜闲聊",
    title: `帖子 ${19999 - i}`,
    content: `第 ${19999 - i} 条帖子：有人一起去图书馆自习吗？`.repeat(3),
    author: { name: `同学${1993 - i * 7}`, anonymous: false, avatar: null as string | null },
    createdAt: new Date(now - i * 60_000).toISOString(),
    time: `${i + 1}分钟前`,
    viewCount: i,
    commentCount: 5,
    likeCount: 10,
    isLiked: i % 3 === 0,
  }));
  return json({ posts });
}

function Icon({ name }: { name: string }) {
  return (
    <svg className="h-4 w-4" aria-hidden="true">
      <use href={`${SPRITE}#${name}`} />
    </svg>
  );
}

function Count({ icon, label, value, active = false }: { icon: string; label: string; value: number; active?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-1 ${active ? "text-rose-500" : ""}`}>
      <Icon name={icon} />
      <span className="sr-only">{label}</span>
      {value}
    </span>
  );
}

export default function Cards() {
  const { posts } = useLoaderData<typeof loader>();
  return (
    <main className="space-y-3 p-3">
      <ul className="space-y-3" aria-label="圈子">
        {posts.map((post) => (
          <li key={post.id}>
            <article className="card space-y-2.5 p-0" aria-labelledby={`post-${post.id}-author`}>
              <Link to={`/post/${post.id}`} className="block space-y-2.5 p-4 pb-3 active:bg-slate-50" prefetch="intent">
                <header className="flex items-center gap-2.5">
                  <span className="h-10 w-10 text-base shrink-0 rounded-full flex items-center justify-center bg-brand-soft font-semibold text-brand" aria-hidden="true">
                    {post.author.name.slice(0, 1)}
                  </span>
                  <div className="min-w-0 flex-1">
                    <p id={`post-${post.id}-author`} className="truncate text-sm font-semibold text-slate-900">
                      {post.author.name}
                    </p>
                    <p className="text-xs text-slate-500">
                      <time dateTime={post.createdAt}>{post.time}</time>
                    </p>
                  </div>
                </header>
                <div className="flex min-w-0 items-center gap-1.5">
                  <span className="shrink-0 rounded-full bg-brand-soft px-2 py-0.5 text-xs text-brand-dark">{post.categoryName}</span>
                  <span className="min-w-0 truncate rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-700 ring-1 ring-inset ring-amber-200">{`# ${post.title}`}</span>
                </div>
                <p className="line-clamp-3 whitespace-pre-line break-words text-[15px] leading-6 text-slate-800">{post.content}</p>
                <footer className="flex items-center gap-4 pt-0.5 text-xs text-slate-500">
                  <Count icon="eye" label="浏览" value={post.viewCount} />
                  <Count icon="chat" label="评论" value={post.commentCount} />
                  <Count icon="heart" label="点赞" value={post.likeCount} active={post.isLiked} />
                </footer>
              </Link>
            </article>
          </li>
        ))}
      </ul>
    </main>
  );
}
