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

/**
 * Decorative: the label is beside it. The stroke attributes and the viewBox live on the sprite's
 * symbols, not here: six fewer attributes per icon, a third of /circle's.
 */
export function Icon({ name, className = "h-5 w-5" }: { name: IconName; className?: string }) {
  return (
    <svg className={className} aria-hidden="true">
      <use href={`${spriteHref}#${name}`} />
    </svg>
  );
}
