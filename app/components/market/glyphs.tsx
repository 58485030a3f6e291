// The market's glyphs are symbols of the one icon sprite.
import type { IconName } from "../icons";

export type GlyphName = Extract<IconName, "camera" | "plus" | "truck" | "box" | "trash">;

export { Icon as Glyph } from "../icons";
