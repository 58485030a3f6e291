// The order-confirm sheet's strokes, drawn like ../icons.tsx (24×24, currentColor).
import { strokeIconSet } from "../stroke-icons";

const PATHS = {
  minus: "M5 12h14",
  plus: "M12 5v14M5 12h14",
  ticket: "M3 7a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v3a2 2 0 0 0 0 4v3a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-3a2 2 0 0 0 0-4zM14 5v14",
  note: "M4 4h16v12l-4 4H4zM16 20v-4h4M8 9h8M8 13h5",
} as const;

export type GlyphName = keyof typeof PATHS;

export const Glyph = strokeIconSet(PATHS);
