import crypto from "node:crypto";

// A 5×7 dot-matrix font for the captcha alphabet. Glyphs are drawn as jittered, rotated blocks
// among noise, so the answer never appears as text in the SVG.
const GLYPHS: Record<string, string[]> = {
  A: ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
  B: ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
  C: ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
  D: ["11100", "10010", "10001", "10001", "10001", "10010", "11100"],
  E: ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
  F: ["11111", "10000", "10000", "11110", "10000", "10000", "10000"],
  G: ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
  H: ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
  J: ["00111", "00010", "00010", "00010", "00010", "10010", "01100"],
  K: ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
  M: ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
  N: ["10001", "10001", "11001", "10101", "10011", "10001", "10001"],
  P: ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
  Q: ["01110", "10001", "10001", "10001", "10101", "10010", "01101"],
  R: ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
  S: ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
  T: ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
  U: ["10001", "10001", "10001", "10001", "10001", "10001", "01110"],
  V: ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
  W: ["10001", "10001", "10001", "10101", "10101", "10101", "01010"],
  X: ["10001", "10001", "01010", "00100", "01010", "10001", "10001"],
  Y: ["10001", "10001", "01010", "00100", "00100", "00100", "00100"],
  "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
  "3": ["11111", "00010", "00100", "00010", "00001", "10001", "01110"],
  "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
  "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
  "6": ["00110", "01000", "10000", "11110", "10001", "10001", "01110"],
  "7": ["11111", "00001", "00010", "00100", "01000", "01000", "01000"],
  "8": ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
};

export const CAPTCHA_GLYPHS = Object.keys(GLYPHS);

const WIDTH = 120;
const HEIGHT = 44;
const COLOURS = ["#1d4ed8", "#b91c1c", "#047857", "#7c3aed", "#c2410c", "#0f766e"];

function random(min: number, max: number) {
  return min + (crypto.randomInt(0, 10_000) / 10_000) * (max - min);
}

function pick<T>(items: readonly T[]) {
  return items[crypto.randomInt(0, items.length)];
}

/** An SVG picture of the answer (which must consist of glyphs of the font). */
export function drawCaptcha(answer: string): string {
  const parts: string[] = [];
  for (let i = 0; i < 6; i++) {
    parts.push(
      `<path d="M${random(0, WIDTH).toFixed(1)} ${random(0, HEIGHT).toFixed(1)} Q${random(0, WIDTH).toFixed(1)} ${random(0, HEIGHT).toFixed(1)} ${random(0, WIDTH).toFixed(1)} ${random(0, HEIGHT).toFixed(1)}" stroke="${pick(COLOURS)}" stroke-opacity="0.35" stroke-width="1.2" fill="none"/>`,
    );
  }
  for (let i = 0; i < 40; i++) {
    parts.push(`<rect x="${random(0, WIDTH).toFixed(1)}" y="${random(0, HEIGHT).toFixed(1)}" width="1.6" height="1.6" fill="${pick(COLOURS)}" fill-opacity="0.5"/>`);
  }
  const cell = 3.6;
  [...answer].forEach((char, index) => {
    const glyph = GLYPHS[char];
    if (!glyph) throw new Error("captcha character outside the font");
    const x = 10 + index * 27 + random(-2, 2);
    const y = 8 + random(-3, 3);
    const angle = random(-18, 18).toFixed(1);
    const colour = pick(COLOURS);
    const blocks: string[] = [];
    glyph.forEach((row, r) => {
      [...row].forEach((bit, c) => {
        if (bit === "1") {
          blocks.push(`<rect x="${(c * cell + random(-0.4, 0.4)).toFixed(1)}" y="${(r * cell + random(-0.4, 0.4)).toFixed(1)}" width="${(cell + 0.3).toFixed(1)}" height="${(cell + 0.3).toFixed(1)}"/>`);
        }
      });
    });
    parts.push(`<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle} 9 12.6)" fill="${colour}">${blocks.join("")}</g>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><rect width="100%" height="100%" fill="#f1f5f9"/>${parts.join("")}</svg>`;
}
