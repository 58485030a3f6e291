// Sharing an invite link: the messenger's share menu when the page runs inside the messenger and
// the notifications issue's JS-SDK config (POST /api/wechat/jsapi-config) is available; otherwise
// the link is copied for the student to paste. Browser only; loaded with the share dialog.

type Wx = {
  config(options: Record<string, unknown>): void;
  ready(callback: () => void): void;
  error(callback: (reason: unknown) => void): void;
  updateAppMessageShareData(options: Record<string, unknown>): void;
  updateTimelineShareData(options: Record<string, unknown>): void;
};

const SDK_URL = "https://res.wx.qq.com/open/js/jweixin-1.6.0.js";

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
        const card = { title: share.title, desc: share.desc, link: share.link, imgUrl: share.imgUrl ?? `${window.location.origin}/favicon.ico` };
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
