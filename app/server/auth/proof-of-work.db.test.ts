// The proof of work on the logins (decision 033): a solution passes once, a forged, replayed or
// expired one does not, and a failed login without one counts double against the client's
// guesses across accounts.
import { createChallenge, solveChallenge } from "altcha-lib";
import { describe, expect, it } from "vitest";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { config } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { request } from "../../../tests/setup/helpers";
import { captchaToken } from "./captcha.server";
import { loginOperator } from "./operator.server";
import { createProofChallenge, spendProof, type ProofChallenge } from "./proof-of-work.server";

async function solved(challenge: ProofChallenge) {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error("no solution");
  const { algorithm, salt, signature } = challenge;
  return Buffer.from(JSON.stringify({ algorithm, challenge: challenge.challenge, number: solution.number, salt, signature })).toString("base64");
}

describe("proof of work", () => {
  it("a challenge is signed and bounded; its solution passes once, a forged or expired one never", async () => {
    const challenge = await createProofChallenge();
    expect(challenge.maxnumber).toBe(PROOF_OF_WORK.maxNumber);
    const payload = await solved(challenge);
    expect(await spendProof(payload)).toBe(true);
    expect(await spendProof(payload)).toBe(false);

    const forged = JSON.parse(Buffer.from(await solved(await createProofChallenge()), "base64").toString()) as { number: number };
    forged.number += 1;
    expect(await spendProof(Buffer.from(JSON.stringify(forged)).toString("base64"))).toBe(false);
    for (const junk of [undefined, "", "not-base64-json", 42, "x".repeat(2000)]) expect(await spendProof(junk)).toBe(false);

    const expired = await createChallenge({ hmacKey: `altcha|${config().sessionSecret}`, maxNumber: 100, expires: new Date(Date.now() - 1000) });
    expect(await spendProof(await solved({ ...expired, maxnumber: 100 }))).toBe(false);
    // Signed with another key: refused.
    const foreign = await createChallenge({ hmacKey: "someone-else", maxNumber: 100, expires: new Date(Date.now() + 60_000) });
    expect(await spendProof(await solved({ ...foreign, maxnumber: 100 }))).toBe(false);
  });

  it("a failed login without a proof counts double on the client's guesses across accounts; with one, once", async () => {
    const failuresOf = () => db().selectFrom("login_throttles").select(["key", "failures"]).where("key", "like", "operator:address:%").execute();
    const before = new Set((await failuresOf()).map((row) => row.key));
    const attempt = async (ip: string, proofOfWork?: string) =>
      loginOperator(`nobody-${ip}`, "wrong-password-1", ip, { request: request("/admin/login"), captcha: "AB23", captchaId: captchaToken("AB23"), proofOfWork });
    await attempt("10.77.0.1");
    const withoutProof = (await failuresOf()).filter((row) => !before.has(row.key));
    expect(withoutProof.map((row) => row.failures)).toEqual([2]);
    before.add(withoutProof[0]!.key);
    await attempt("10.77.0.2", await solved(await createProofChallenge()));
    const withProof = (await failuresOf()).filter((row) => !before.has(row.key));
    expect(withProof.map((row) => row.failures)).toEqual([1]);
  });
});
