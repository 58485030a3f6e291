// Proof of work on the remaining anonymous costly forms (decision 042), on the production build:
// the feature request (the page's JSON call and the market page's form without JavaScript) and
// the invite registration. A forged or reused solution is refused; a valid one passes; without
// one (no JavaScript) the form still works, and costs double on its limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { actionAnswer, dataPath } from "../support/single-fetch";
import { rawRequest } from "./http";
import { CAPTCHA_ANSWER, captchaToken, insertStudent, makeMessengerUser, solvedProof, sql, startServer, type Server } from "./server";

let server: Server;
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "Content-Type": "application/json" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

beforeAll(async () => {
  // Roomy limits except the invite registration's (2 an hour per user): where "counts double" shows.
  server = await startServer({ RATE_LIMIT_INVITE_REGISTER: "2,1000/3600", RATE_LIMIT_FEATURE_REQUEST: "1000,1000/600" });
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

/** A forged solution: a real one with its number changed. */
async function forgedProof() {
  const solution = JSON.parse(Buffer.from(await solvedProof(), "base64").toString()) as { number: number };
  solution.number += 1;
  return Buffer.from(JSON.stringify(solution)).toString("base64");
}

describe("the feature request's JSON call", () => {
  const tap = (altcha?: string) =>
    rawRequest(server.base, "/api/feature-request", { headers: JSON_TYPE, body: JSON.stringify({ featureType: "online", ...(altcha === undefined ? {} : { altcha }) }) });

  it("is refused without a valid solution (none, forged, garbage or reused) and passes with one", async () => {
    const before = sql(server, "SELECT id FROM feature_requests").length;
    for (const altcha of [undefined, "", await forgedProof(), "bm90LWpzb24="]) {
      const refused = await tap(altcha);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ success: false, message: refusalMessages.proofInvalid });
    }
    expect(sql(server, "SELECT id FROM feature_requests")).toHaveLength(before);

    const valid = await solvedProof();
    const passed = await tap(valid);
    expect(passed.status).toBe(200);
    expect(JSON.parse(passed.body).success).toBe(true);
    expect((await tap(valid)).status).toBe(403); // one solution, one request
    expect(sql(server, "SELECT id FROM feature_requests")).toHaveLength(before + 1);
  });
});

describe("the feature request's form without JavaScript (the market page)", () => {
  const post = (fields: Record<string, string>) =>
    rawRequest(server.base, dataPath("/market?index"), { headers: FORM, body: form({ intent: "feature-request", featureType: "errand", ...fields }) });

  it("refuses a forged solution, takes a valid one, and still works with none", async () => {
    const before = sql(server, "SELECT id FROM feature_requests").length;
    const forged = await post({ altcha: await forgedProof() });
    expect(forged.status).toBe(403);
    expect((await actionAnswer<{ error: string }>(forged.body)).data?.error).toBe(refusalMessages.proofInvalid);
    expect((await post({ altcha: await solvedProof() })).status).toBe(200);
    expect((await post({})).status).toBe(200);
    expect(sql(server, "SELECT id FROM feature_requests")).toHaveLength(before + 2);
  });
});

describe("the invite registration", () => {
  // A complete, valid form (a school-account login with a wrong password): the proof is judged first.
  const fields = () => ({ intent: "register", nickname: "新同学", phone: "13800138000", school: "demo", studentId: "20249998", password: "not-the-password", captcha: CAPTCHA_ANSWER, captchaId: captchaToken() });
  const register = (cookie: string, extra: Record<string, string>) =>
    rawRequest(server.base, dataPath("/market/promo-activity"), { headers: FORM, cookie, body: form({ ...fields(), ...extra }) });

  it("refuses a forged or reused solution before the school is asked; a valid one passes", async () => {
    const student = await insertStudent(server);
    makeMessengerUser(server, student.userId);
    const forged = await register(student.cookie, { altcha: await forgedProof() });
    expect(forged.status).toBe(403);
    const { data } = await actionAnswer<{ error: Record<string, string[]>; proof: { challenge: string } }>(forged.body);
    expect(data!.error[""]).toEqual([refusalMessages.proofInvalid]);
    expect(data!.proof.challenge).toMatch(/^[0-9a-f]{64}$/); // a new challenge to solve

    const valid = await solvedProof();
    const passed = await register(student.cookie, { altcha: valid });
    expect(passed.status).not.toBe(403); // on to the registration (here refused by the invite code)
    expect(passed.status).not.toBe(429);
    expect((await register(student.cookie, { altcha: valid })).status).toBe(403);
  });

  it("without JavaScript (no solution) still goes on, and counts double on its limit", async () => {
    const student = await insertStudent(server);
    makeMessengerUser(server, student.userId);
    const first = await register(student.cookie, {});
    expect(first.status).not.toBe(403);
    expect(first.status).not.toBe(429);
    expect((await register(student.cookie, { altcha: await solvedProof() })).status).toBe(429); // 2 of 2 spent

    const other = await insertStudent(server);
    makeMessengerUser(server, other.userId);
    expect((await register(other.cookie, { altcha: await solvedProof() })).status).not.toBe(429);
    expect((await register(other.cookie, { altcha: await solvedProof() })).status).not.toBe(429);
  });
});
