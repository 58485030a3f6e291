import crypto from "node:crypto";
import { createRequire } from "node:module";
import opentype from "opentype.js";
import sharp from "sharp";

// The captcha picture is a raster image (decision 033). The glyph outlines are drawn on the
// server and only pixels leave it: an SVG of outlines, however distorted, was read by matching
// each path's command sequence against the public font. Each character gets its own rotation,
// scale, shear and warp (its outline is cut into short segments and every point is displaced by
// the character's own waves), the characters touch or overlap, and noise curves in the same
// colours cross them. A template matcher that draws each character in the same font reads few of
// them (the security suite measures it); a person reads them because the shapes stay whole.

type Point = { x: number; y: number };
type Command = { type: string; x?: number; y?: number; x1?: number; y1?: number; x2?: number; y2?: number };
type FontPath = { commands: Command[]; getBoundingBox(): { x1: number; y1: number; x2: number; y2: number } };
export type CaptchaFont = { charToGlyph(char: string): { getPath(x: number, y: number, size: number): FontPath; unicode?: number } };

/** The picture's size in CSS pixels; it is drawn at twice this for sharp phone screens. */
export const CAPTCHA_WIDTH = 120;
export const CAPTCHA_HEIGHT = 44;
const PIXEL_RATIO = 2;
/** The font size at which the characters are drawn (Oswald is tall and narrow). */
export const CAPTCHA_FONT_SIZE = 34;
const BACKGROUND = "#f1f5f9";
const COLOURS = ["#1d4ed8", "#b91c1c", "#047857", "#7c3aed", "#c2410c", "#0f766e", "#334155"];

let loadedFont: CaptchaFont | null = null;

/** Oswald (SIL Open Font License) from its npm package, read once. */
export function captchaFont(): CaptchaFont {
  if (loadedFont) return loadedFont;
  const require = createRequire(import.meta.url);
  const file = require.resolve("@fontsource/oswald/files/oswald-latin-600-normal.woff");
  loadedFont = opentype.loadSync(file) as unknown as CaptchaFont;
  return loadedFont;
}

function random(min: number, max: number) {
  return min + (crypto.randomInt(0, 1_000_000) / 1_000_000) * (max - min);
}

function pick<T>(items: readonly T[]) {
  return items[crypto.randomInt(0, items.length)]!;
}

const num = (value: number) => value.toFixed(2);

/** The outline of one character as closed polylines, curves and long lines cut into short pieces. */
export function glyphContours(char: string, size = CAPTCHA_FONT_SIZE, font = captchaFont()) {
  const glyph = font.charToGlyph(char);
  const path = glyph.getPath(0, 0, size);
  const box = path.getBoundingBox();
  if (!glyph.unicode || !Number.isFinite(box.x1) || box.x2 - box.x1 <= 0) throw new Error("captcha character outside the font");
  const contours: Point[][] = [];
  let current: Point[] = [];
  let at: Point = { x: 0, y: 0 };
  const lineTo = (to: Point) => {
    const steps = Math.max(1, Math.ceil(Math.hypot(to.x - at.x, to.y - at.y) / 1.5));
    for (let i = 1; i <= steps; i++) current.push({ x: at.x + ((to.x - at.x) * i) / steps, y: at.y + ((to.y - at.y) * i) / steps });
    at = to;
  };
  for (const c of path.commands) {
    if (c.type === "M") {
      if (current.length > 2) contours.push(current);
      at = { x: c.x!, y: c.y! };
      current = [at];
    } else if (c.type === "L") lineTo({ x: c.x!, y: c.y! });
    else if (c.type === "Q" || c.type === "C") {
      const from = at;
      const to = { x: c.x!, y: c.y! };
      for (let i = 1; i <= 8; i++) {
        const t = i / 8;
        const u = 1 - t;
        const point =
          c.type === "Q"
            ? { x: u * u * from.x + 2 * u * t * c.x1! + t * t * to.x, y: u * u * from.y + 2 * u * t * c.y1! + t * t * to.y }
            : {
                x: u ** 3 * from.x + 3 * u * u * t * c.x1! + 3 * u * t * t * c.x2! + t ** 3 * to.x,
                y: u ** 3 * from.y + 3 * u * u * t * c.y1! + 3 * u * t * t * c.y2! + t ** 3 * to.y,
              };
        current.push(point);
      }
      at = to;
    } else if (c.type === "Z") {
      if (current.length > 0) lineTo(current[0]!);
      if (current.length > 2) contours.push(current);
      current = [];
    }
  }
  if (current.length > 2) contours.push(current);
  return { contours, centre: { x: (box.x1 + box.x2) / 2, y: (box.y1 + box.y2) / 2 }, width: box.x2 - box.x1 };
}

const pathOf = (contours: Point[][]) => contours.map((points) => `M${points.map((p) => `${num(p.x)} ${num(p.y)}`).join("L")}Z`).join("");

/** One character, placed around `centreX`, with its own rotation, scale, shear and warp. */
function distortedGlyph(char: string, centreX: number) {
  const { contours, centre } = glyphContours(char);
  const angle = random(-0.35, 0.35);
  const shear = random(-0.3, 0.3);
  const scaleX = random(0.75, 1.25);
  const scaleY = random(0.75, 1.1);
  const targetX = centreX + random(-3, 3);
  const targetY = CAPTCHA_HEIGHT / 2 + random(-4, 4);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // The character's own warp: two waves across it, of their own amplitude, length and phase.
  const wave = { ax: random(0.8, 1.6), ay: random(0.8, 1.6), fx: random(0.2, 0.4), fy: random(0.2, 0.4), px: random(0, 7), py: random(0, 7) };
  // Smooth bends no rigid template follows: one side narrower than the other, the upright bowed.
  const taper = random(-0.15, 0.15);
  const bow = random(-0.012, 0.012);
  const move = (p: Point): Point => {
    const ry = p.y - centre.y;
    const dx = (p.x - centre.x) * scaleX * (1 + (taper * ry) / 14) + ry * shear + bow * ry * ry;
    const dy = ry * scaleY;
    const x = targetX + dx * cos - dy * sin;
    const y = targetY + dx * sin + dy * cos;
    return { x: x + wave.ax * Math.sin(y * wave.fx + wave.px), y: y + wave.ay * Math.sin(x * wave.fy + wave.py) };
  };
  return pathOf(contours.map((points) => points.map(move)));
}

/** A curve across the picture, stroked about as thick as a character's thin strokes. */
function noiseCurve() {
  const y = () => random(6, CAPTCHA_HEIGHT - 6);
  const start = `${num(random(-4, 10))} ${num(y())}`;
  const c1 = `${num(random(20, 55))} ${num(random(-8, CAPTCHA_HEIGHT + 8))}`;
  const c2 = `${num(random(60, 100))} ${num(random(-8, CAPTCHA_HEIGHT + 8))}`;
  const end = `${num(random(CAPTCHA_WIDTH - 10, CAPTCHA_WIDTH + 4))} ${num(y())}`;
  return `<path d="M${start}C${c1} ${c2} ${end}" fill="none" stroke="${pick(COLOURS)}" stroke-width="${num(random(1, 1.8))}" stroke-linecap="round"/>`;
}

/** A curve in the background's colour across the picture: it cuts gaps into the characters. */
function cutCurve() {
  const y = () => random(10, CAPTCHA_HEIGHT - 10);
  return `<path d="M${num(random(-4, 10))} ${num(y())}C${num(random(25, 55))} ${num(random(0, CAPTCHA_HEIGHT))} ${num(random(60, 95))} ${num(random(0, CAPTCHA_HEIGHT))} ${num(random(CAPTCHA_WIDTH - 10, CAPTCHA_WIDTH + 4))} ${num(y())}" fill="none" stroke="${BACKGROUND}" stroke-width="${num(random(0.9, 1.3))}"/>`;
}

/** A short thick arc somewhere on the picture: a piece of stroke that belongs to no character. */
function noiseArc() {
  const cx = random(8, CAPTCHA_WIDTH - 8);
  const cy = random(6, CAPTCHA_HEIGHT - 6);
  const r = random(5, 12);
  const a = random(0, Math.PI * 2);
  const b = a + random(0.6, 1.4);
  const p = (t: number) => `${num(cx + r * Math.cos(t))} ${num(cy + r * Math.sin(t))}`;
  return `<path d="M${p(a)}A${num(r)} ${num(r)} 0 0 1 ${p(b)}" fill="none" stroke="${pick(COLOURS)}" stroke-width="${num(random(2, 3))}" stroke-linecap="round"/>`;
}

function speckles() {
  let dots = "";
  for (let i = 0; i < 40; i++) {
    dots += `<circle cx="${num(random(0, CAPTCHA_WIDTH))}" cy="${num(random(0, CAPTCHA_HEIGHT))}" r="${num(random(0.3, 1))}" fill="${pick(COLOURS)}" fill-opacity="${num(random(0.2, 0.6))}"/>`;
  }
  return dots;
}

/** The SVG drawn on the server only (never sent): the characters, then noise over them. */
function sceneSvg(answer: string) {
  // The characters touch or overlap: nothing cuts the picture into one box per character.
  // Uneven gaps and an offset: no fixed grid of places to compare characters in.
  const centres = [0];
  for (let i = 1; i < answer.length; i++) centres.push(centres[i - 1]! + random(18, 24));
  const first = (CAPTCHA_WIDTH - centres.at(-1)!) / 2 + random(-4, 4);
  // Each character in its own weight: its outline stroked in its colour, from nothing to bold.
  let previous = "";
  const glyphs = [...answer].map((char, index) => {
    // Neighbours differ in colour, so a person tells overlapping characters apart.
    const colour = pick(COLOURS.filter((c) => c !== previous));
    previous = colour;
    const d = distortedGlyph(char, first + centres[index]!);
    // About half the characters are drawn as outlines only: as easy to read, but not the filled shape a template has.
    if (crypto.randomInt(0, 2) === 0) return `<path fill="none" stroke="${colour}" stroke-width="${num(random(1.1, 1.5))}" stroke-linejoin="round" d="${d}"/>`;
    return `<path fill="${colour}" stroke="${colour}" stroke-width="${num(random(0, 1.6))}" stroke-linejoin="round" d="${d}"/>`;
  });
  const noise = [cutCurve(), cutCurve(), noiseCurve(), noiseCurve(), noiseArc(), noiseArc()];
  const w = CAPTCHA_WIDTH * PIXEL_RATIO;
  const h = CAPTCHA_HEIGHT * PIXEL_RATIO;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${CAPTCHA_WIDTH} ${CAPTCHA_HEIGHT}"><rect width="100%" height="100%" fill="${BACKGROUND}"/>${speckles()}${glyphs.join("")}${noise.join("")}</svg>`;
}

/** A WebP picture of the answer (every character must be in the font). */
export async function drawCaptcha(answer: string): Promise<Buffer> {
  return sharp(Buffer.from(sceneSvg(answer))).webp({ quality: 70, effort: 2 }).toBuffer();
}
