// The sheets' glyphs are symbols of the one icon sprite.
import type { IconName } from "../icons";

export type GlyphName = Extract<IconName, "minus" | "plus" | "ticket" | "note">;

export { Icon as Glyph } from "../icons";
