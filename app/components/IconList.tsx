import { Icon, type IconName } from "~/components/icons";

/** Short lines, each after the same icon: a feature's points, the invite milestones. */
export function IconList({ lines, icon, className, iconClassName }: { lines: readonly string[]; icon: IconName; className: string; iconClassName?: string }) {
  return (
    <ul className={className}>
      {lines.map((line) => (
        <li key={line} className="flex items-center gap-2">
          <Icon name={icon} className={`h-4 w-4 shrink-0 ${iconClassName ?? ""}`} />
          {line}
        </li>
      ))}
    </ul>
  );
}
