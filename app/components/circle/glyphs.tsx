// The circle's glyphs are symbols of the one icon sprite.
import type { IconName } from "../icons";

export type GlyphName = Extract<IconName, "eye" | "share" | "image" | "trash" | "flag" | "plus">;

export { Icon as Glyph } from "../icons";
