import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { IconName } from "~/components/icons";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { aboutSections } from "~/lib/content/about";
import type { AboutSection } from "~/lib/content/about";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import type { RouteHandle } from "~/root";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, titles: titlesMessages };

/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStudent(request);
  return null;
}

export const meta: MetaFunction = () => [{ title: `${msg.titles.about} · ${msg.app.name}` }];

const SECTION_ICONS: Record<string, IconName> = {
  story: "book",
  features: "star",
  tech: "software",
  privacy: "shield",
  "public-interest": "heart",
  join: "users",
  contact: "chat",
};

export default function About() {
  return (
    <Page title={msg.titles.about} back="/backpack">
      <section className="card flex flex-col items-center gap-2 py-6 text-center">
        <span className="flex h-16 w-16 items-center justify-center rounded-2xl bg-gradient-to-br from-brand to-brand-dark text-3xl font-bold text-white shadow-md" aria-hidden="true">
          {msg.app.name.slice(-1)}
        </span>
        <p className="text-xl font-semibold text-slate-900">{msg.app.name}</p>
        <p className="text-sm text-slate-500">{msg.app.tagline}</p>
        <p className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs text-slate-500">{msg.app.version}</p>
      </section>

      {/* In-page contents: plain anchors, so they work without JavaScript. */}
      <nav aria-label={msg.app.contents}>
        <ul className="flex flex-wrap gap-2">
          {aboutSections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="inline-block rounded-full bg-white px-3 py-1 text-xs text-slate-600 shadow-sm active:bg-brand-soft">
                {section.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      {aboutSections.map((section) => (
        <AboutCard key={section.id} section={section} />
      ))}
    </Page>
  );
}

function AboutCard({ section }: { section: AboutSection }) {
  const headingId = `${section.id}-title`;
  return (
    <section id={section.id} aria-labelledby={headingId} className="card scroll-mt-16 space-y-3">
      <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <span className="flex h-8 w-8 items-center justify-center rounded-xl bg-brand-soft text-brand">
          <Icon name={SECTION_ICONS[section.id] ?? "info"} className="h-[18px] w-[18px]" />
        </span>
        {section.title}
      </h2>
      {section.paragraphs.map((paragraph) => (
        <p key={paragraph} className="text-[15px] leading-7 text-slate-600">
          {paragraph}
        </p>
      ))}
      {section.items ? (
        <ul className="space-y-2">
          {section.items.map((item) => (
            <li key={item} className="flex gap-2 rounded-xl bg-slate-50 px-3 py-2 text-sm leading-6 text-slate-600">
              <Icon name="check" className="mt-1 h-4 w-4 shrink-0 text-brand" />
              <LabelledItem text={item} />
            </li>
          ))}
        </ul>
      ) : null}
      {section.id === "contact" ? (
        <Link to="/CustomerService" className="btn-primary w-full">
          <Icon name="service" className="h-4 w-4" />
          {msg.titles.customerService}
        </Link>
      ) : null}
    </section>
  );
}

/** "课表：学号登录后…" → the part before the first full-width colon in bold. */
function LabelledItem({ text }: { text: string }) {
  const at = text.indexOf("：");
  if (at <= 0 || at > 12) return <span>{text}</span>;
  return (
    <span>
      <strong className="font-semibold text-slate-800">{text.slice(0, at + 1)}</strong>
      {text.slice(at + 1)}
    </span>
  );
}
