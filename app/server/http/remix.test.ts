import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { StoredCredentialsRejected } from "../school/types";
import { guardedBuild } from "./remix";

function buildWith(module: Record<string, unknown>): ServerBuild {
  return { routes: { "routes/schedule": { id: "routes/schedule", path: "schedule", module } } } as unknown as ServerBuild;
}

const args = { request: new Request("http://localhost/schedule", { method: "POST" }), params: {}, context: {} };

async function thrownBy(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing thrown");
}

describe("guardedBuild answers the domain's errors", () => {
  it("stored credentials the school rejects: the login page, saying why, from a loader or an action", async () => {
    const rejected = () => {
      throw new StoredCredentialsRejected("/schedule?week=3");
    };
    const { module } = guardedBuild(buildWith({ loader: rejected, action: rejected })).routes["routes/schedule"]!;
    for (const run of [module.loader!, module.action!]) {
      const answer = (await thrownBy(() => run(args as never))) as Response;
      expect(answer).toBeInstanceOf(Response);
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fschedule%3Fweek%3D3&reason=credentials");
    }
  });

  it("any other error goes on as it was", async () => {
    const failure = new Error("boom");
    const { module } = guardedBuild(buildWith({ loader: () => Promise.reject(failure) })).routes["routes/schedule"]!;
    expect(await thrownBy(() => module.loader!(args as never))).toBe(failure);
  });
});
