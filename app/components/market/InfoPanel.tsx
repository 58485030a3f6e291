import type { InfoPanelView } from "~/lib/market-views";
import { Icon } from "../icons";
import { Panel } from "./Panel";

/**
 * The market's read-only panels (?sheet=size|notice|contact|tip|ordering): a dialog opened by a
 * link and closed by one; its copy is the loader's data, drawn by kind.
 */
export function InfoPanel({ panel }: { panel: InfoPanelView }) {
  return (
    <Panel title={panel.title} closeTo={panel.closeTo} labelId="static-panel-title" variant="dialog">
      <PanelBody panel={panel} />
    </Panel>
  );
}

function PanelBody({ panel }: { panel: InfoPanelView }) {
  switch (panel.kind) {
    case "size":
      return (
        <ul className="space-y-3">
          {panel.types.map((type) => (
            <li key={type.type} id={`size-${type.type}`} className={`rounded-2xl p-3 ring-1 ${panel.focus === type.type ? "bg-brand-soft/40 ring-brand" : "ring-slate-200"}`}>
              <p className="flex items-baseline justify-between">
                <span className="font-semibold text-slate-900">{type.name}</span>
                <span className="text-sm text-red-600">{type.price}</span>
              </p>
              <p className="text-sm text-slate-500">{type.desc}</p>
              {type.standards.map((standard) => (
                <div key={standard.title} className="mt-2 rounded-xl bg-white/70 p-2 text-sm">
                  <p className="font-medium text-slate-700">{standard.title}</p>
                  <p className="text-xs text-slate-500">{standard.desc}</p>
                  {standard.examples.length > 0 ? (
                    <p className="mt-1 flex flex-wrap gap-1">
                      <span className="text-xs text-slate-500">{panel.examples}</span>
                      {standard.examples.map((example) => (
                        <span key={example} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                          {example}
                        </span>
                      ))}
                    </p>
                  ) : null}
                </div>
              ))}
            </li>
          ))}
        </ul>
      );
    case "rows":
      return (
        <dl className="divide-y divide-slate-100 text-sm">
          {panel.rows.map((row) => (
            <div key={row.label} className="flex justify-between gap-3 py-2.5">
              <dt className="text-slate-500">{row.label}</dt>
              <dd className="text-right text-slate-800">{row.value}</dd>
            </div>
          ))}
        </dl>
      );
    case "contact":
      return (
        <div className="space-y-3 text-sm">
          {panel.links.map((link) => (
            <a key={link.href} href={link.href} className="flex items-center gap-3 rounded-2xl bg-slate-50 p-3">
              <span className="flex-1">
                <span className="block font-medium">{link.title}</span>
                <span className="block text-slate-500">{link.detail}</span>
              </span>
              <span className={link.muted ? "text-slate-300" : "text-brand"}>{link.action}</span>
            </a>
          ))}
        </div>
      );
    case "list":
      return (
        <ol className="list-decimal space-y-2 pl-5 text-sm leading-6 text-slate-700">
          {panel.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ol>
      );
    case "message":
      return (
        <div className="space-y-4 py-2 text-center">
          <Icon name="clock" className="mx-auto h-12 w-12 text-brand" />
          <p className="text-sm leading-6 text-slate-600">{panel.body}</p>
        </div>
      );
  }
}
