// The default share card is a 300×300 PNG (the messenger shows no SVG thumbnail).
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/share-card[.png]";
import { DEFAULT_SHARE_IMAGE } from "../../app/components/share";
import { SHARE_CARD_IMAGE } from "../../app/components/content/ShareButton";
import { decideAccess } from "../../app/lib/access";

describe("the share card", () => {
  it("GET /share-card.png answers a 300×300 PNG", async () => {
    const response = await loader();
    expect(response.headers.get("Content-Type")).toBe("image/png");
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "png", width: 300, height: 300 });
  });

  it("is the default of the hydrated pages and of the blog, and anyone (the messenger's fetcher) may get it", () => {
    expect(DEFAULT_SHARE_IMAGE).toBe("/share-card.png");
    expect(SHARE_CARD_IMAGE).toBe("/share-card.png");
    expect(decideAccess({ pathname: "/share-card.png", hasStudent: false, isMessenger: false, messengerOnly: true })).toEqual({ kind: "allow" });
  });
});
