import { useEffect, useRef, useState } from "react";
import { PROOF_OF_WORK, type ProofChallenge } from "~/lib/proof-of-work";

export type { ProofChallenge };

// Solves the form's proof-of-work challenge in the page (decision 033) and puts the solution in a
// hidden field. A short loop over SubtleCrypto, awaiting each hash, so the page stays responsive;
// no library on the page. Without JavaScript (or SubtleCrypto) the field stays empty and the
// server applies its tighter limit instead.
async function solve(challenge: ProofChallenge, cancelled: () => boolean): Promise<string> {
  const encoder = new TextEncoder();
  for (let number = 0; number <= challenge.maxnumber; number++) {
    if (number % 500 === 0 && cancelled()) return "";
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(challenge.salt + number)));
    let hex = "";
    for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
    if (hex === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return btoa(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }));
    }
  }
  return "";
}

/**
 * The hidden `altcha` field of a form. A submission before the work is done waits for it (a
 * listener on the form itself runs before React's handler at the root), then goes on.
 */
export function ProofOfWork({ challenge }: { challenge: ProofChallenge | null | undefined }) {
  const [solution, setSolution] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setSolution("");
    const form = input.current?.form;
    if (!challenge || !form || typeof crypto === "undefined" || !crypto.subtle) return;
    let cancelled = false;
    let found: string | null = null;
    const solving = solve(challenge, () => cancelled).then(
      (value) => {
        found = value;
        if (!cancelled) setSolution(value);
        return value;
      },
      () => (found = ""),
    );
    const waitForWork = (event: SubmitEvent) => {
      if (found !== null) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      event.stopPropagation();
      const submitter = event.submitter;
      void solving.then((value) => {
        if (cancelled) return;
        if (input.current) input.current.value = value ?? "";
        form.requestSubmit(submitter instanceof HTMLElement && submitter.getAttribute("type") !== "button" ? (submitter as HTMLButtonElement) : undefined);
      });
    };
    form.addEventListener("submit", waitForWork);
    return () => {
      cancelled = true;
      form.removeEventListener("submit", waitForWork);
    };
  }, [challenge]);
  return <input ref={input} type="hidden" name={PROOF_OF_WORK.field} value={solution} />;
}
