// How every icon set draws: 24×24 strokes in currentColor, decorative (the label is beside it).
// Sets stay separate modules (components/icons, circle/glyphs, market/…) so a page's JavaScript
// carries only the paths it uses.
export function strokeIconSet<Name extends string>(paths: Readonly<Record<Name, string>>) {
  return function StrokeIcon({ name, className = "h-5 w-5" }: { name: Name; className?: string }) {
    return (
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
        <path d={paths[name]} />
      </svg>
    );
  };
}
