import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CampusSelector } from "~/components/CampusSelector";
import { Icon, type IconName } from "~/components/icons";
import { ProfileAvatar } from "~/components/ProfileAvatar";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { backpack as backpackMessages } from "~/lib/messages/backpack";
import { notify as notifyMessages } from "~/lib/messages/notify";
import { profile as profileMessages } from "~/lib/messages/profile";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { fillTemplate } from "~/lib/template";
import { campusSelectorState } from "~/server/campus/selector.server";
import { campusChoiceText } from "~/server/http/campus-refusals";
import { publicName } from "~/server/forum/posts.server";
import { inboxBadge } from "~/server/notify/inbox.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, backpack: backpackMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.backpack} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const badge = await inboxBadge(user.id);
  const { refused, ...shownSelector } = await campusSelectorState(request, user);
  return {
    profile: {
      // The one name the circle, comments and invites show; the real name only on the profile page.
      nickname: publicName(user),
      avatar: user.avatar_url ?? user.wechat_avatar,
      studentId: user.student_id ?? msg.backpack.studentIdNotSet,
    },
    selector: { ...shownSelector, error: campusChoiceText(refused) },
    // '7 条未读' for screen readers.
    inbox: badge ? { text: badge.text, label: fillTemplate(notifyMessages.inbox.unreadCount, { count: badge.count }) } : null,
  };
}

const GROUPS: { to: string; label: string; icon: IconName; badge?: "inbox" }[][] = [
  [
    { to: "/backpack/grades", label: msg.backpack.grades, icon: "star" },
    { to: "/backpack/exams", label: msg.backpack.exams, icon: "calendar" },
    { to: "/backpack/grades#ranking", label: msg.backpack.gpa, icon: "course" },
  ],
  [
    { to: "/orders", label: msg.backpack.orders, icon: "order" },
    { to: "/backpack/posts", label: msg.backpack.posts, icon: "edit" },
    { to: "/backpack/favourites", label: msg.backpack.favourites, icon: "star" },
    { to: "/backpack/inbox", label: msg.backpack.inbox, icon: "inbox", badge: "inbox" },
  ],
  [
    { to: "/about", label: msg.backpack.about, icon: "info" },
    { to: "?selectCampus=1", label: msg.backpack.switchCampus, icon: "map" },
    { to: "/CustomerService", label: msg.backpack.customerService, icon: "service" },
    { to: "/backpack/settings", label: msg.backpack.settings, icon: "settings" },
  ],
];

// The backpack opens the selector only when asked ("switch campus"); an unset campus is the
// market's business, not a reason to block the profile.
export default function Backpack() {
  const { profile, selector, inbox } = useLoaderData<typeof loader>();
  return (
    <Page title={msg.titles.backpack} withTabBar>
      <section className="card flex items-center gap-4">
        <ProfileAvatar src={profile.avatar} name={profile.nickname} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold">{profile.nickname}</p>
          <p className="text-sm text-slate-500">
            {msg.backpack.studentId}：{profile.studentId}
          </p>
          {selector.current ? <p className="text-sm text-slate-500">{selector.current.name}</p> : null}
        </div>
        <Link to="/backpack/profile" className="btn-ghost shrink-0 px-3 py-1 text-xs">
          {profileMessages.edit}
        </Link>
      </section>
      {GROUPS.map((group, index) => (
        <ul key={index} className="card divide-y divide-slate-100 p-0">
          {group.map((entry) => (
            <li key={entry.label}>
              <Link to={entry.to} preventScrollReset={entry.to.startsWith("?")} className="flex items-center gap-3 px-4 py-3.5">
                <Icon name={entry.icon} className="h-5 w-5 text-brand" />
                <span className="flex-1">{entry.label}</span>
                {entry.badge === "inbox" && inbox ? (
                  <span className="min-w-5 rounded-full bg-red-500 px-1.5 text-center text-xs font-semibold leading-5 text-white" aria-label={inbox.label}>
                    {inbox.text}
                  </span>
                ) : null}
                <Icon name="chevron" className="h-4 w-4 text-slate-500" />
              </Link>
            </li>
          ))}
        </ul>
      ))}
      {selector.asked ? (
        <CampusSelector campuses={selector.campuses} current={selector.current?.code} redirectTo={selector.redirectTo} error={selector.error} />
      ) : null}
    </Page>
  );
}
