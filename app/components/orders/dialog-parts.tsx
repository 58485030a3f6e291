// What the order page's dialogs share: the refused answer's line and the pending state.
import { useNavigation } from "@remix-run/react";

export type Base = { path: string; error?: string | null };

export function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}
