import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import type { IconName } from "~/components/icons";
import { Icon, isIconName } from "~/components/icons";
import { Page } from "~/components/Page";
import type { DailyPick, Notice, NoticeType, PickType, ResourceRoom } from "~/lib/content/treasure";
import { dailyPicks, noticeTypeLabels, notices, pickTypeLabels, resourceRooms } from "~/lib/content/treasure";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { treasure as treasureMessages } from "~/lib/messages/treasure";
import type { RouteHandle } from "~/root";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, titles: titlesMessages, treasure: treasureMessages };

// Every 'more' and detail action is a link to ?notice=dev: the loader sees it and the page shows
// the 'in development' toast. No JavaScript needed; with it, the scroll position is kept.

const PATH = "/treasure";
const DEV_PATH = `${PATH}?notice=dev`;

/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStudent(request);
  const showDev = new URL(request.url).searchParams.get("notice") === "dev";
  return { showDev };
}

export const meta: MetaFunction = () => [{ title: `${msg.titles.treasure} · ${msg.app.name}` }];

const NOTICE_BADGE: Record<NoticeType, string> = {
  important: "bg-red-50 text-red-600 ring-red-200",
  notice: "bg-brand-soft text-brand-dark ring-brand/20",
  maintenance: "bg-amber-50 text-amber-700 ring-amber-200",
};

const PICK_ICON: Record<PickType, IconName> = { book: "book", music: "music", course: "course", material: "material" };

const PICK_TINT: Record<PickType, string> = {
  book: "bg-sky-50 text-sky-600",
  music: "bg-pink-50 text-pink-600",
  course: "bg-emerald-50 text-emerald-600",
  material: "bg-amber-50 text-amber-600",
};

export default function Treasure() {
  const { showDev } = useLoaderData<typeof loader>();
  return (
    <Page title={msg.titles.treasure} back="/market">
      {showDev ? <DevToast /> : null}

      <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-brand to-brand-dark p-4 text-white shadow-sm">
        <p className="text-lg font-semibold">{msg.treasure.heroTitle}</p>
        <p className="mt-1 text-sm leading-6 text-white/85">{msg.treasure.heroHint}</p>
        <Icon name="star" className="pointer-events-none absolute -bottom-3 -right-2 h-20 w-20 text-white/10" />
      </section>

      <Section id="rooms" title={msg.treasure.rooms}>
        <ul className="grid grid-cols-2 gap-2.5">
          {resourceRooms.map((room) => (
            <li key={room.key} className="last:odd:col-span-2">
              <RoomTile room={room} />
            </li>
          ))}
        </ul>
      </Section>

      <Section id="notices" title={msg.treasure.notices}>
        <ul className="card divide-y divide-slate-100 p-0">
          {notices.map((notice) => (
            <li key={notice.id}>
              <NoticeRow notice={notice} />
            </li>
          ))}
        </ul>
      </Section>

      <Section id="picks" title={msg.treasure.picks}>
        <ul className="card divide-y divide-slate-100 p-0">
          {dailyPicks.map((pick) => (
            <li key={pick.id}>
              <PickRow pick={pick} />
            </li>
          ))}
        </ul>
      </Section>
    </Page>
  );
}

/** A link that only announces 'in development'. */
function DevLink({ className, label, children }: { className?: string; label?: string; children: ReactNode }) {
  return (
    <Link to={DEV_PATH} preventScrollReset replace className={className} aria-label={label}>
      {children}
    </Link>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const headingId = `${id}-title`;
  return (
    <section aria-labelledby={headingId} className="space-y-2 pt-1">
      <div className="flex items-center justify-between px-1">
        <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <span className="h-4 w-1 rounded-full bg-brand" aria-hidden="true" />
          {title}
        </h2>
        <DevLink className="inline-flex items-center text-xs text-slate-500" label={`${title} ${msg.treasure.more}`}>
          {msg.treasure.more}
          <Icon name="chevron" className="h-4 w-4" />
        </DevLink>
      </div>
      {children}
    </section>
  );
}

function RoomTile({ room }: { room: ResourceRoom }) {
  return (
    <DevLink className="card flex h-full items-center gap-3 p-3 active:bg-slate-50">
      <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-soft text-brand">
        <Icon name={isIconName(room.icon) ? room.icon : "inbox"} className="h-6 w-6" />
      </span>
      <span className="min-w-0">
        <span className="block text-sm font-semibold text-slate-900">{room.name}</span>
        <span className="block text-xs leading-5 text-slate-500">{room.description}</span>
      </span>
    </DevLink>
  );
}

function NoticeRow({ notice }: { notice: Notice }) {
  return (
    <DevLink className="block space-y-1 px-4 py-3 active:bg-slate-50">
      <span className="flex items-center gap-2">
        <span className={`shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium ring-1 ring-inset ${NOTICE_BADGE[notice.type]}`}>
          {noticeTypeLabels[notice.type]}
        </span>
        <span className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-900">{notice.title}</span>
        <time dateTime={notice.date} className="shrink-0 text-xs text-slate-500">
          {notice.date.slice(5)}
        </time>
      </span>
      <span className="line-clamp-2 block text-xs leading-5 text-slate-500">{notice.summary}</span>
    </DevLink>
  );
}

function PickRow({ pick }: { pick: DailyPick }) {
  return (
    <DevLink className="flex items-center gap-3 px-4 py-3 active:bg-slate-50" label={`${pick.title} ${msg.treasure.detail}`}>
      <span className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-xl ${PICK_TINT[pick.type]}`}>
        <Icon name={PICK_ICON[pick.type]} className="h-5 w-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-1.5">
          <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-[11px] text-slate-500">{pickTypeLabels[pick.type]}</span>
          <span className="truncate text-sm font-semibold text-slate-900">{pick.title}</span>
        </span>
        <span className="mt-0.5 block truncate text-xs text-slate-500">{pick.subtitle}</span>
      </span>
      <Icon name="chevron" className="h-4 w-4 shrink-0 text-slate-300" />
    </DevLink>
  );
}

function DevToast() {
  return (
    <div className="pointer-events-none fixed inset-x-0 top-14 z-30 !mt-0 flex justify-center px-4">
      <div role="status" className="pointer-events-auto flex max-w-sm items-center gap-2 rounded-full bg-slate-900/90 py-2 pl-4 pr-2 text-sm text-white shadow-lg">
        <Icon name="info" className="h-4 w-4 shrink-0" />
        <span>{msg.app.inDevelopment}</span>
        <Link to={PATH} preventScrollReset replace className="rounded-full p-1 text-white/70 hover:bg-white/10" aria-label={msg.app.close}>
          <Icon name="close" className="h-4 w-4" />
        </Link>
      </div>
    </div>
  );
}
