// The parts the two login forms share (the students' /crLogin and the operators' /admin/login):
// what each posts besides its fields, the captcha field, and the captcha and
// proof of work on show, renewed by every answer (each answer spends them).
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useEffect, useState } from "react";
import { FormError } from "~/components/FieldError";
import { LabelledField } from "~/components/LabelledField";
import { ProofOfWork, type ProofChallenge } from "~/components/ProofOfWork";

type Field = FieldMetadata<any, any, string[]>;
type Captcha = { id: string; image: string };

/** Where to go after signing in, the captcha's id, the proof of work, and the form's refusal. */
export function LoginFormHead({ redirectTo, captchaId, proof, form }: { redirectTo: string; captchaId: string; proof: ProofChallenge; form: { errorId: string; errors?: string[] } }) {
  return (
    <>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <input type="hidden" name="captchaId" value={captchaId} />
      <ProofOfWork challenge={proof} />
      <FormError id={form.errorId} message={form.errors?.[0]} />
    </>
  );
}

/** The captcha's input beside its picture; with `refresh`, the picture is a button that asks for a new one. */
export function CaptchaField({ field, captcha, label, placeholder, refresh }: { field: Field; captcha: Captcha; label: string; placeholder?: string; refresh?: { label: string; onClick: () => void } }) {
  return (
    <LabelledField field={field} label={label}>
      <div className="flex items-center gap-2">
        <input
          {...getInputProps(field, { type: "text", value: false })}
          key={`captcha-${captcha.id}`}
          className="field-input flex-1 uppercase"
          placeholder={placeholder}
          maxLength={4}
          autoComplete="off"
          autoCapitalize="characters"
        />
        {refresh ? (
          <button type="button" onClick={refresh.onClick} title={refresh.label} className="shrink-0 overflow-hidden rounded-xl border border-slate-200">
            <img src={captcha.image} width={120} height={44} alt={refresh.label} />
          </button>
        ) : (
          <img src={captcha.image} width={120} height={44} alt={label} className="shrink-0 rounded-xl border border-slate-200" />
        )}
      </div>
    </LabelledField>
  );
}

/** The captcha and proof of work on show: the loader's first, then the new ones each answer brought. */
export function useLoginChallenges(first: { captcha: Captcha; proof: ProofChallenge }, answer: { captcha?: Captcha | null; proof?: ProofChallenge } | undefined) {
  const [captcha, setCaptcha] = useState(first.captcha);
  const [proof, setProof] = useState(first.proof);
  useEffect(() => {
    if (answer?.captcha) setCaptcha(answer.captcha);
    if (answer?.proof) setProof(answer.proof);
  }, [answer]);
  return { captcha, setCaptcha, proof, setProof };
}
