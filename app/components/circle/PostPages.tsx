// The parts of a list of posts read a page at a time (the circle, 我的帖子, 我的收藏): the card
// shown when there are none, and what follows the last page (加载更多 to the next one, or 没有更多了).
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Icon, type IconName } from "~/components/icons";
import { circle as circleMessages } from "~/lib/messages/circle";

const msg = { circle: circleMessages };

/** No posts: the list's icon, what to say, and (where the student may add one) the 发帖 link. */
export function NoPosts({ icon, text, publish }: { icon: IconName; text: string; publish?: boolean }) {
  return (
    <section className="card flex flex-col items-center gap-3 py-12 text-center">
      <Icon name={icon} className="h-10 w-10 text-slate-300" />
      <p className="text-sm text-slate-500">{text}</p>
      {publish ? (
        <Link to="/publish-post" className="btn-primary">
          {msg.circle.publish}
        </Link>
      ) : null}
    </section>
  );
}

/** Under a page of posts: 加载更多 (a link to `next`) while there is one, 没有更多了 after the last page. */
export function NextPosts({ next, children }: { next: string | null; children?: ReactNode }) {
  return next ? (
    <Link to={next} className="btn-ghost mx-auto flex w-40">
      {children ?? msg.circle.loadMore}
    </Link>
  ) : (
    <p className="py-2 text-center text-xs text-slate-500">{msg.circle.noMore}</p>
  );
}

/** Above a later page: the way back to the newest posts. */
export function BackToNewest({ to }: { to: string }) {
  return (
    <Link to={to} className="block text-center text-sm text-brand">
      {msg.circle.backToNewest}
    </Link>
  );
}
