// Proof of work on anonymous costly forms (decision 033). The work is the number whose SHA-256
// with the challenge's salt is the challenge: up to `maxNumber` hashes, half on average (about a
// second on a phone's browser, milliseconds for native code: a speed bump, the limits stay the
// defence). A login failure without a proof (no JavaScript) counts `failuresWithoutProof` times
// against the client's guesses across accounts (the address-wide throttle).
export const PROOF_OF_WORK = {
  maxNumber: 50_000,
  ttlMs: 10 * 60 * 1000,
  /** How many failures a failed login without a proof counts on the address-wide throttle (with one: 1). */
  failuresWithoutProof: 2,
  /** The form field that carries the solution. */
  field: "altcha",
} as const;

/** A challenge in ALTCHA's format, as the page receives it (made on the server, solved in the page). */
export type ProofChallenge = { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
