// The default share card: a 300×300 PNG the messenger shows beside a shared link (it shows no
// SVG). Drawn with sharp from a shape-only SVG (no text, so no font is needed on the server) the
// first time it is asked for, then kept in memory.
import sharp from "sharp";

export const SHARE_CARD_PATH = "/share-card.png";
export const SHARE_CARD_SIZE = 300;

// The app's mark: a speech bubble with a tick on the default brand blue.
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">
<rect width="300" height="300" fill="#2563eb"/>
<path d="M70 80h160a20 20 0 0 1 20 20v90a20 20 0 0 1-20 20h-86l-44 36v-36H70a20 20 0 0 1-20-20v-90a20 20 0 0 1 20-20z" fill="#ffffff"/>
<path d="M105 145l32 30 60-62" fill="none" stroke="#2563eb" stroke-width="18" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;

let card: Promise<Buffer> | null = null;

export function shareCardPng(): Promise<Buffer> {
  card ??= sharp(Buffer.from(SVG)).resize(SHARE_CARD_SIZE, SHARE_CARD_SIZE).png().toBuffer();
  return card;
}
