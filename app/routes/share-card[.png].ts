// GET /share-card.png: the default share card (300×300 PNG) pages give the messenger.
import { shareCardPng } from "~/server/share-card.server";

export async function loader() {
  const png = await shareCardPng();
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Cache-Control": "public, max-age=86400",
    },
  });
}
