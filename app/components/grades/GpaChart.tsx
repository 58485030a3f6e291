import { grades as gradesMessages } from "~/lib/messages/grades";
import { fillTemplate } from "~/lib/template";

const msg = { grades: gradesMessages };

export type ChartData = {
  width: number;
  height: number;
  left: number;
  right: number;
  gridlines: { gpa: number; y: number }[];
  points: { term: string; x: number; y: number; label: string; value: string }[];
};

/** GPA by term as inline SVG, drawn from server-computed coordinates: no script, no library. */
export function GpaChart({ chart }: { chart: ChartData }) {
  if (chart.points.length === 0) return <p className="py-6 text-center text-sm text-slate-500">{msg.grades.chartEmpty}</p>;
  const label = fillTemplate(msg.grades.chartLabel, { points: chart.points.map((point) => `${point.label} ${point.value}`).join("，") });
  return (
    <svg viewBox={`0 0 ${chart.width} ${chart.height}`} role="img" aria-label={label} className="h-auto w-full" data-testid="gpa-chart">
      {chart.gridlines.map((line) => (
        <g key={line.gpa}>
          <line x1={chart.left} x2={chart.right} y1={line.y} y2={line.y} className="stroke-slate-200" strokeWidth={1} />
          <text x={chart.left - 6} y={line.y + 3} textAnchor="end" fontSize={9} className="fill-slate-500">
            {line.gpa.toFixed(1)}
          </text>
        </g>
      ))}
      {chart.points.length > 1 ? (
        <polyline points={chart.points.map((point) => `${point.x},${point.y}`).join(" ")} fill="none" className="stroke-brand" strokeWidth={2} strokeLinejoin="round" />
      ) : null}
      {chart.points.map((point) => (
        <g key={point.term}>
          <circle cx={point.x} cy={point.y} r={3.5} className="fill-[rgb(var(--surface))] stroke-brand" strokeWidth={2} />
          <text x={point.x} y={point.y - 7} textAnchor="middle" fontSize={9} fontWeight={600} className="fill-slate-900">
            {point.value}
          </text>
          <text x={point.x} y={chart.height - 10} textAnchor="middle" fontSize={9} className="fill-slate-500">
            {point.label}
          </text>
        </g>
      ))}
    </svg>
  );
}
