// What the order page's dialogs share: the refused answer's line and the pending state.
import { useNavigation } from "@remix-run/react";

export type Base = { path: string; error?: string | null };

export function ErrorLine({ error, id }: { error?: string | null; id: string }) {
  if (!error) return null;
  return (
    <p id={id} role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-sm text-red-700">
      {error}
    </p>
  );
}

export function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}
