import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { resetConfig } from "~/server/config.server";
import { unseal } from "~/server/crypto.server";
import { db } from "~/server/db/db.server";
import { hostOf } from "../../../tests/fakes/allow";
import { FAKE_QZ_STUDENT, startFakeQiangzhi, type FakeQiangzhi } from "../../../tests/fakes/qiangzhi-server";
import { request } from "../../../tests/setup/helpers";

// A QiangZhi school with its image captcha on: the login page shows the school's picture and
// sends the student's reading back with the (sealed) school session it was drawn in.
let fake: FakeQiangzhi;

beforeAll(async () => {
  process.env.CAPTCHA_FIXED_VALUE = "AB23";
  resetConfig();
  fake = await startFakeQiangzhi({ captcha: true, variant: "interleave" });
  // The fake listens on loopback: name it to the outbound client.
  process.env.OUTBOUND_ALLOW_HOSTS = hostOf(fake.baseUrl);
  resetConfig();
  await db().insertInto("schools").values({ code: "qzcap", name: "强智验证码大学", system: "qiangzhi", base_url: fake.baseUrl, sort_order: 1, enabled: 1 }).execute();
});

afterAll(async () => {
  await fake.close();
});

type Answer = { schoolChallenge: { image: string; state: string } | null; result: { error?: Record<string, string[]> } };

async function submit(extra: Record<string, string> = {}) {
  const data = (await loginLoader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } };
  const body = new URLSearchParams({ school: "qzcap", studentId: FAKE_QZ_STUDENT.id, password: FAKE_QZ_STUDENT.password, captcha: "AB23", captchaId: data.captcha.id, ...extra });
  return (await loginAction({ request: request("/crLogin", { method: "POST", body }), params: {}, context: { clientIp: "192.0.2.91" } })) as Response;
}

describe("login at a school with its own captcha", () => {
  it("shows the school's picture, then logs in with the student's reading of it", async () => {
    const first = await submit();
    expect(first.status).toBe(401);
    const answer = (await first.json()) as Answer;
    expect(answer.schoolChallenge!.image).toMatch(/^data:image\/gif;base64,R0lG/);
    expect(JSON.stringify(answer.result)).toContain(msg.login.schoolCaptchaHint);
    // The school session travels sealed, never as readable cookies.
    expect(answer.schoolChallenge!.state).not.toContain("JSESSIONID");
    const { JSESSIONID } = JSON.parse(unseal(answer.schoolChallenge!.state)) as Record<string, string>;
    expect(fake.state.captchas.get(JSESSIONID)).toMatch(/^[0-9A-Za-z]{4}$/);

    const wrong = await submit({ schoolCaptcha: "nope", schoolCaptchaState: answer.schoolChallenge!.state });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(await wrong.json())).toContain("验证码错误");

    const again = (await (await submit()).json()) as Answer;
    const { JSESSIONID: sid } = JSON.parse(unseal(again.schoolChallenge!.state)) as Record<string, string>;
    const ok = await submit({ schoolCaptcha: fake.state.captchas.get(sid)!, schoolCaptchaState: again.schoolChallenge!.state });
    expect(ok.status).toBe(302);
    expect(await db().selectFrom("users").select("real_name").where("student_id", "=", FAKE_QZ_STUDENT.id).executeTakeFirst()).toEqual({ real_name: "赵小川" });
  });

  it("ignores a tampered school session and asks again", async () => {
    const response = await submit({ schoolCaptcha: "ABCD", schoolCaptchaState: "v1.not.a.sealed" });
    expect(response.status).toBe(401);
    expect(((await response.json()) as Answer).schoolChallenge).not.toBeNull();
  });
});
