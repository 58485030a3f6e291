import { useEffect, useState } from "react";
import type { coupons as couponMessages } from "~/lib/messages/coupons";
import { copyText, prepareMessengerShare } from "~/components/share";

/** The share dialog's labels (the catalogue's coupons.share), sent by the loader so the page's JavaScript carries no catalogue. */
export type ShareLabels = typeof couponMessages.share;

export type InviteShareProps = {
  labels: ShareLabels;
  code: string;
  /** The full invite link (origin included). */
  link: string;
  reward: string;
  shareTitle: string;
  shareDesc: string;
};

/**
 * The invite code and link with copy and share (the express tab's invite dialog and the promo
 * page's share dialog). Without JavaScript the link is a read-only field to select by hand.
 */
export function InviteShare({ labels: m, code, link, reward, shareTitle, shareDesc }: InviteShareProps) {
  const [notice, setNotice] = useState<string | null>(null);
  const [messenger, setMessenger] = useState(false);
  useEffect(() => {
    let live = true;
    prepareMessengerShare({ title: shareTitle, desc: shareDesc, link }).then((ready) => live && setMessenger(ready));
    return () => {
      live = false;
    };
  }, [link, shareTitle, shareDesc]);

  const copy = async () => setNotice((await copyText(link)) ? m.copied : m.copyFailed);
  const share = async () => {
    if (messenger) return setNotice(m.messengerHint);
    await copy();
  };

  return (
    <div className="space-y-3">
      <div className="rounded-2xl bg-orange-50 px-4 py-3 text-center">
        <p className="text-xs text-orange-700">{m.code}</p>
        <p className="mt-1 font-mono text-2xl font-bold tracking-[0.2em] text-orange-700" data-testid="invite-code">
          {code}
        </p>
      </div>
      <label className="block text-sm">
        <span className="text-slate-500">{m.link}</span>
        <input readOnly value={link} onFocus={(event) => event.currentTarget.select()} className="field-input mt-1 text-xs" data-testid="invite-link" />
      </label>
      <p className="text-sm text-slate-600">{reward}</p>
      <div className="grid grid-cols-2 gap-2">
        <button type="button" onClick={copy} className="btn-ghost h-10 text-sm">
          {m.copy}
        </button>
        <button type="button" onClick={share} className="btn-primary h-10 text-sm">
          {m.messenger}
        </button>
      </div>
      {notice ? (
        <p role="status" className="rounded-xl bg-slate-900/85 px-3 py-2 text-center text-sm text-white">
          {notice}
        </p>
      ) : null}
    </div>
  );
}
