import crypto from "node:crypto";
import svgCaptcha from "svg-captcha";

// The captcha picture (a program must not read it from the SVG's structure). Each
// character is an outline of svg-captcha's font, turned, sheared, scaled and bent by its own
// random transform and a wave across the picture; the noise is drawn the same way (filled
// outlines of the same colours, crossing the characters), and all paths come in random order.
// No <text>, no <rect>, no groups: nothing tells glyph from noise but the shapes themselves.

type Point = { x: number; y: number };
type Command = { type: string; x?: number; y?: number; x1?: number; y1?: number; x2?: number; y2?: number };
type FontPath = { commands: Command[]; getBoundingBox(): { x1: number; y1: number; x2: number; y2: number } };
type Font = { charToGlyph(char: string): { getPath(x: number, y: number, size: number): FontPath; unicode?: number } };

const font = (svgCaptcha as unknown as { options: { font: Font } }).options.font;

export const CAPTCHA_WIDTH = 120;
export const CAPTCHA_HEIGHT = 44;
const FONT_SIZE = 42;
const NOISE_RIBBONS = 4;
const COLOURS = ["#1d4ed8", "#b91c1c", "#047857", "#7c3aed", "#c2410c", "#0f766e", "#334155"];

function random(min: number, max: number) {
  return min + (crypto.randomInt(0, 1_000_000) / 1_000_000) * (max - min);
}

function pick<T>(items: readonly T[]) {
  return items[crypto.randomInt(0, items.length)]!;
}

function shuffle<T>(items: T[]) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = crypto.randomInt(0, i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const num = (value: number) => value.toFixed(1);

/** A wave that bends the whole picture, so no character keeps the font's straight lines. */
function waveOf() {
  const ampY = random(1.5, 3);
  const ampX = random(0.8, 2);
  const freqY = random(0.05, 0.09);
  const freqX = random(0.1, 0.2);
  const phaseY = random(0, Math.PI * 2);
  const phaseX = random(0, Math.PI * 2);
  return (p: Point): Point => ({
    x: p.x + ampX * Math.sin(p.y * freqX + phaseX) + random(-0.35, 0.35),
    y: p.y + ampY * Math.sin(p.x * freqY + phaseY) + random(-0.35, 0.35),
  });
}

function glyphPath(char: string, centreX: number, wave: (p: Point) => Point) {
  const glyph = font.charToGlyph(char);
  const path = glyph.getPath(0, 0, FONT_SIZE);
  const box = path.getBoundingBox();
  if (!glyph.unicode || !Number.isFinite(box.x1) || box.x2 - box.x1 <= 0) throw new Error("captcha character outside the font");
  const cx = (box.x1 + box.x2) / 2;
  const cy = (box.y1 + box.y2) / 2;
  const angle = random(-0.45, 0.45);
  const shear = random(-0.35, 0.35);
  const scaleX = random(0.85, 1.1);
  const scaleY = random(0.85, 1.15);
  const targetX = centreX + random(-2.5, 2.5);
  const targetY = CAPTCHA_HEIGHT / 2 + random(-3, 3);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const transform = (x: number, y: number): string => {
    const dx = (x - cx) * scaleX + (y - cy) * shear;
    const dy = (y - cy) * scaleY;
    const point = wave({ x: targetX + dx * cos - dy * sin, y: targetY + dx * sin + dy * cos });
    return `${num(point.x)} ${num(point.y)}`;
  };
  return path.commands
    .map((c) => {
      switch (c.type) {
        case "M":
        case "L":
          return `${c.type}${transform(c.x!, c.y!)}`;
        case "Q":
          return `Q${transform(c.x1!, c.y1!)} ${transform(c.x!, c.y!)}`;
        case "C":
          return `C${transform(c.x1!, c.y1!)} ${transform(c.x2!, c.y2!)} ${transform(c.x!, c.y!)}`;
        default:
          return "Z";
      }
    })
    .join("");
}

/** A filled ribbon along a random curve across the picture, drawn like a glyph outline. */
function noiseRibbon(wave: (p: Point) => Point) {
  const start = { x: random(-5, 20), y: random(4, CAPTCHA_HEIGHT - 4) };
  const end = { x: random(CAPTCHA_WIDTH - 20, CAPTCHA_WIDTH + 5), y: random(4, CAPTCHA_HEIGHT - 4) };
  const c1 = { x: random(20, 60), y: random(-10, CAPTCHA_HEIGHT + 10) };
  const c2 = { x: random(60, 100), y: random(-10, CAPTCHA_HEIGHT + 10) };
  const width = random(0.8, 1.6);
  const steps = 18;
  const top: Point[] = [];
  const bottom: Point[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    const x = u ** 3 * start.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t ** 3 * end.x;
    const y = u ** 3 * start.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t ** 3 * end.y;
    const w = width * random(0.7, 1.3);
    top.push(wave({ x, y: y - w / 2 }));
    bottom.push(wave({ x, y: y + w / 2 }));
  }
  const points = [...top, ...bottom.reverse()];
  return `M${points.map((p) => `${num(p.x)} ${num(p.y)}`).join("L")}Z`;
}

/** An SVG picture of the answer (every character must be in the font). */
export function drawCaptcha(answer: string): string {
  const wave = waveOf();
  const spacing = (CAPTCHA_WIDTH - 16) / answer.length;
  const shapes = [...answer].map((char, index) => glyphPath(char, 8 + spacing * (index + 0.5), wave));
  for (let i = 0; i < NOISE_RIBBONS; i++) shapes.push(noiseRibbon(wave));
  const paths = shuffle(shapes).map((d) => `<path fill="${pick(COLOURS)}" fill-opacity="${num(random(0.7, 0.95))}" d="${d}"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" viewBox="0 0 ${CAPTCHA_WIDTH} ${CAPTCHA_HEIGHT}" style="background:#f1f5f9">${paths.join("")}</svg>`;
}
