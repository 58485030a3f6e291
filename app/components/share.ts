// Share cards inside the messenger: the title, description and image the messenger's share menu
// shows for a page (invites, posts, the promo page), set through the JS-SDK after the notifications
// issue's config (POST /api/wechat/jsapi-config). Outside the messenger the share button copies
// the link instead. Browser only.
import { useEffect } from "react";

type Wx = {
  config(options: Record<string, unknown>): void;
  ready(callback: () => void): void;
  error(callback: (reason: unknown) => void): void;
  updateAppMessageShareData(options: Record<string, unknown>): void;
  updateTimelineShareData(options: Record<string, unknown>): void;
};

const SDK_URL = "https://res.wx.qq.com/open/js/jweixin-1.6.0.js";
/** The default share card (a 300×300 PNG served by routes/share-card[.png]). */
export const DEFAULT_SHARE_IMAGE = "/share-card.png";

function loadSdk(): Promise<Wx | null> {
  const existing = (window as unknown as { wx?: Wx }).wx;
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = SDK_URL;
    script.async = true;
    script.onload = () => resolve((window as unknown as { wx?: Wx }).wx ?? null);
    script.onerror = () => resolve(null);
    document.head.appendChild(script);
  });
}

/** Sets the messenger's share card for this page. False outside the messenger or when the config is unavailable. */
export async function prepareMessengerShare(share: { title: string; desc: string; link: string; imgUrl?: string }): Promise<boolean> {
  if (!/MicroMessenger/i.test(navigator.userAgent)) return false;
  try {
    const response = await fetch("/api/wechat/jsapi-config", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ url: window.location.href.split("#")[0] }),
    });
    const body = (await response.json()) as { success?: boolean; data?: Record<string, unknown> };
    if (!body.success || !body.data) return false;
    const wx = await loadSdk();
    if (!wx) return false;
    return await new Promise<boolean>((resolve) => {
      wx.config({ debug: false, ...body.data });
      wx.ready(() => {
        // The messenger shows no SVG: the default card is a 300×300 PNG.
        const card = { title: share.title, desc: share.desc, link: share.link, imgUrl: share.imgUrl ?? `${window.location.origin}${DEFAULT_SHARE_IMAGE}` };
        wx.updateAppMessageShareData(card);
        wx.updateTimelineShareData(card);
        resolve(true);
      });
      wx.error(() => resolve(false));
    });
  } catch {
    return false;
  }
}

/** Copies text; true when it worked (the Clipboard API, then the selection fallback of older in-app browsers). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection fallback
  }
  try {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const done = document.execCommand("copy");
    document.body.removeChild(area);
    return done;
  } catch {
    return false;
  }
}

export type ShareCard = { title: string; desc: string; link: string; imgUrl?: string };

/** Sets this page's share card once it is in the browser (nothing happens outside the messenger). */
export function useShareCard(card: ShareCard | null) {
  const key = card ? JSON.stringify(card) : "";
  useEffect(() => {
    if (!card) return;
    const absolute = (path: string) => new URL(path, window.location.href).href;
    void prepareMessengerShare({ ...card, link: absolute(card.link), imgUrl: card.imgUrl ? absolute(card.imgUrl) : undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
