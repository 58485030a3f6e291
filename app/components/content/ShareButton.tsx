import { useEffect } from "react";
import { Glyph } from "~/components/circle/glyphs";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";

const msg = { postDetail: postDetailMessages };

/** The default share card image (a 300×300 PNG; the messenger shows no SVG). */
export const SHARE_CARD_IMAGE = "/share-card.png";

/**
 * The share card of a page without React (the blog): public/share-card.js (a plain deferred
 * script) reads these data-* attributes, sets the card through the JS-SDK inside the messenger,
 * and shows the button, which copies the link. Without JavaScript the button stays hidden.
 * Pair it with a <ShareStatus /> for the copied / failed message.
 */
export function ShareButton({ link, title, desc, image = SHARE_CARD_IMAGE }: { link: string; title: string; desc: string; image?: string }) {
  // Only when this page is hydrated and was reached by a client-side navigation (the script in
  // the first HTML did not run): load it, or run it again.
  useEffect(() => {
    const init = (window as unknown as { campusShareCard?: () => void }).campusShareCard;
    if (init) init();
    else if (!document.querySelector('script[src="/share-card.js"]')) {
      const script = document.createElement("script");
      script.src = "/share-card.js";
      document.head.appendChild(script);
    }
  }, [link]);
  return (
    <>
      <button
        type="button"
        hidden
        className="rounded-full p-1.5 hover:bg-white/10"
        aria-label={msg.postDetail.share}
        data-share-title={title}
        data-share-desc={desc}
        data-share-link={link}
        data-share-img={image}
        data-copied={msg.postDetail.linkCopied}
        data-copy-failed={msg.postDetail.copyFailed}
      >
        <Glyph name="share" className="h-5 w-5" />
      </button>
      <script src="/share-card.js" defer />
    </>
  );
}

export function ShareStatus() {
  return (
    <p
      role="status"
      hidden
      data-share-status
      className="fixed inset-x-4 top-14 z-40 !mt-0 mx-auto max-w-sm rounded-full bg-slate-900/90 px-4 py-2 text-center text-sm text-white shadow-lg"
    />
  );
}
