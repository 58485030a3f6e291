// A captcha solver, as an attacker would write one, for the security suite (decision 033).
// - Path matching: in an SVG picture, each <path>'s command sequence is compared with each
//   character's outline in the font; the paths that match are read left to right.
// - Raster template matching: the picture is thresholded, lines thinner than a stroke are opened
//   away, and each of the four places is compared with every character drawn in the captcha's own
//   font, turned and scaled over the range the captcha uses, at small offsets; the best match wins.
import sharp from "sharp";
import { CAPTCHA_ALPHABET, CAPTCHA_LENGTH } from "~/lib/captcha";
import { CAPTCHA_FONT_SIZE, CAPTCHA_HEIGHT, CAPTCHA_WIDTH, glyphContours } from "~/server/auth/captcha-image.server";

/** Reads an SVG captcha from its paths' command sequences; null when fewer than 4 paths match. */
export function solveByPaths(svg: string, signatures: Record<string, string>): string | null {
  const byCommands = new Map(Object.entries(signatures).map(([char, commands]) => [commands, char]));
  const found: { char: string; x: number }[] = [];
  for (const [, d] of svg.matchAll(/<path[^>]* d="([^"]+)"/g)) {
    const char = byCommands.get((d!.match(/[MLQCZ]/g) ?? []).join(""));
    if (!char) continue;
    const xs = [...d!.matchAll(/(-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
    found.push({ char, x: xs.reduce((a, b) => a + b, 0) / xs.length });
  }
  if (found.length !== CAPTCHA_LENGTH) return null;
  return found
    .sort((a, b) => a.x - b.x)
    .map((f) => f.char)
    .join("");
}

type Mask = { width: number; height: number; data: Uint8Array };

const W = CAPTCHA_WIDTH;
const H = CAPTCHA_HEIGHT;

/** Dark pixels of a picture at 1 CSS px per pixel. */
async function inkMask(image: Buffer): Promise<Mask> {
  const { data, info } = await sharp(image).resize(W, H, { fit: "fill" }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const mask = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) mask[i] = data[i * info.channels]! < 170 ? 1 : 0;
  return { width: W, height: H, data: mask };
}

function morph(mask: Mask, keep: (count: number) => boolean): Mask {
  const out = new Uint8Array(mask.data.length);
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      let count = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < mask.width && yy < mask.height) count += mask.data[yy * mask.width + xx]!;
        }
      }
      out[y * mask.width + x] = keep(count) ? 1 : 0;
    }
  }
  return { width: mask.width, height: mask.height, data: out };
}

/** Opening: erode then dilate, which removes lines thinner than about 2 px and keeps strokes. */
const open = (mask: Mask) => morph(morph(mask, (n) => n === 9), (n) => n > 0);

/** A template: its ink pixels as offsets from its centre. */
type Template = { char: string; xs: Int16Array; ys: Int16Array; ink: number; box: [number, number, number, number] };

let templates: Promise<Template[]> | null = null;

const ROTATIONS = [-0.4, -0.2, 0, 0.2, 0.4];
const SCALES = [0.85, 1, 1.15];

async function drawTemplate(char: string, angle: number, scale: number): Promise<Template> {
  const { contours, centre } = glyphContours(char, CAPTCHA_FONT_SIZE * scale);
  const size = 40;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const d = contours
    .map((points) => `M${points.map((p) => `${(size / 2 + (p.x - centre.x) * cos - (p.y - centre.y) * sin).toFixed(2)} ${(size / 2 + (p.x - centre.x) * sin + (p.y - centre.y) * cos).toFixed(2)}`).join("L")}Z`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
  const { data } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const mask = new Uint8Array(size * size);
  for (let i = 0; i < size * size; i++) mask[i] = data[i]! < 128 ? 1 : 0;
  // The template goes through the same opening as the picture.
  const opened = { data: mask };
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < size * size; i++) {
    if (!opened.data[i]) continue;
    xs.push((i % size) - size / 2);
    ys.push(Math.floor(i / size) - size / 2);
  }
  return { char, xs: Int16Array.from(xs), ys: Int16Array.from(ys), ink: xs.length, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs) + 1, Math.max(...ys) + 1] };
}

function allTemplates() {
  templates ??= Promise.all([...CAPTCHA_ALPHABET].flatMap((char) => ROTATIONS.flatMap((angle) => SCALES.map((scale) => drawTemplate(char, angle, scale)))));
  return templates;
}

/**
 * The place's ink on a zero border wide enough for any template at any tried centre: every
 * template pixel then reads one array cell with no bounds check (outside the place reads 0, as
 * a bounds check would count it), which makes the match several times faster, same scores.
 */
const PAD = 32;
const PW = W + 2 * PAD;

function placeInk(mask: Mask, left: number, right: number) {
  const padded = new Uint8Array(PW * (H + 2 * PAD));
  for (let y = 0; y < H; y++) {
    for (let x = Math.max(0, left); x < Math.min(W, right); x++) padded[(y + PAD) * PW + x + PAD] = mask.data[y * W + x]!;
  }
  return padded;
}

/** Each template pixel as an offset into the padded place, from the template's centre. */
const offsetsOf = new WeakMap<Template, Int32Array>();
function offsets(t: Template) {
  let found = offsetsOf.get(t);
  if (!found) {
    found = new Int32Array(t.ink);
    for (let i = 0; i < t.ink; i++) found[i] = t.ys[i]! * PW + t.xs[i]!;
    offsetsOf.set(t, found);
  }
  return found;
}

/** The Dice overlap of a template centred at (cx, cy) with the ink of its place in the picture. */
function overlap(place: Uint8Array, placeInkCount: number, t: Template, cx: number, cy: number) {
  const offs = offsets(t);
  const centre = (cy + PAD) * PW + cx + PAD;
  let both = 0;
  for (let i = 0; i < offs.length; i++) both += place[centre + offs[i]!]!;
  return (2 * both) / (placeInkCount + t.ink || 1);
}

/** Summed-area table of the ink, for the ink inside any box. */
function summed(mask: Mask) {
  const w = mask.width + 1;
  const sums = new Int32Array(w * (mask.height + 1));
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) sums[(y + 1) * w + x + 1] = mask.data[y * mask.width + x]! + sums[y * w + x + 1]! + sums[(y + 1) * w + x]! - sums[y * w + x]!;
  }
  return sums;
}

function inkIn(mask: Mask, sums: Int32Array, x0: number, y0: number, x1: number, y1: number) {
  const w = mask.width + 1;
  const cx = (v: number) => Math.max(0, Math.min(mask.width, v));
  const cy = (v: number) => Math.max(0, Math.min(mask.height, v));
  const [a, b, c, d] = [cx(x0), cy(y0), cx(x1), cy(y1)];
  return sums[d * w + c]! - sums[b * w + c]! - sums[d * w + a]! + sums[b * w + a]!;
}

/** Reads a raster captcha (PNG, WebP, or an SVG rasterised) by template matching. */
export async function solveByTemplates(image: Buffer): Promise<string> {
  const mask = await inkMask(image);
  const sums = summed(mask);
  const all = await allTemplates();
  let best = { text: "", score: -1 };
  // The characters sit about 20 px apart around the middle; each is looked for 5 px either side.
  for (const spacing of [20.5]) {
    const first = (W - spacing * (CAPTCHA_LENGTH - 1)) / 2;
    let text = "";
    let total = 0;
    for (let i = 0; i < CAPTCHA_LENGTH; i++) {
      const x0 = first + spacing * i;
      let slot = { char: "?", score: -1 };
      const left = Math.round(x0 - spacing / 2 - 2);
      const right = Math.round(x0 + spacing / 2 + 2);
      const ink = inkIn(mask, sums, left, 0, right, H);
      const place = placeInk(mask, left, right);
      for (const t of all) {
        for (let dx = -4; dx <= 4; dx++) {
          for (let dy = -4; dy <= 4; dy += 2) {
            const score = overlap(place, ink, t, Math.round(x0 + dx), Math.round(H / 2 + dy));
            if (score > slot.score) slot = { char: t.char, score };
          }
        }
      }
      text += slot.char;
      total += slot.score;
    }
    if (total > best.score) best = { text, score: total };
  }
  return best.text;
}
