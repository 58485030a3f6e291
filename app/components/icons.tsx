// Every icon is a <symbol> of one cached SVG sprite (icon-sprite.svg, 24×24 strokes): a page's
// JavaScript carries only the icon names, never the paths.
import spriteHref from "./icon-sprite.svg";

export const ICON_NAMES = [
  "calendar", "chat", "bag", "user", "back", "chevron", "book", "music", "software", "course", "material", "phone",
  "info", "map", "settings", "star", "order", "inbox", "edit", "service", "bell", "hand", "users", "tag", "alert",
  "search", "logout", "check", "clock", "close", "shield", "heart", "code", "sparkle", "refresh", "target", "down",
  "eye", "share", "image", "trash", "flag", "plus", "camera", "minus", "ticket", "note", "truck", "box",
] as const;

export type IconName = (typeof ICON_NAMES)[number];

/** For icon names that arrive as data (content modules): is this one we can draw? */
export function isIconName(name: string): name is IconName {
  return (ICON_NAMES as readonly string[]).includes(name);
}

/** Decorative: the label is beside it. */
export function Icon({ name, className = "h-5 w-5" }: { name: IconName; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      <use href={`${spriteHref}#${name}`} />
    </svg>
  );
}
