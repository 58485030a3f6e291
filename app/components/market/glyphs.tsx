// The market's few extra strokes, drawn like ../icons.tsx (24×24, currentColor).
import { strokeIconSet } from "../stroke-icons";

const PATHS = {
  camera: "M23 19a2 2 0 0 1-2 2H3a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h4l2-3h6l2 3h4a2 2 0 0 1 2 2zM12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8z",
  plus: "M12 5v14M5 12h14",
} as const;

export type GlyphName = keyof typeof PATHS;

export const Glyph = strokeIconSet(PATHS);
