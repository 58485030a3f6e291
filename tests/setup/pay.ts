// For the pay provider tests: the PayError a call fails with.
import { expect } from "vitest";
import { PayError } from "~/server/pay/errors.server";

/** The PayError `promise` rejects with (anything else, or no rejection, fails the test). */
export async function payError(promise: Promise<unknown>): Promise<PayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PayError);
    return error as PayError;
  }
  throw new Error("expected a PayError");
}
