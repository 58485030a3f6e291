// ALLOW_ANY_BROWSER as the README says: true by default outside production, and when set to
// false it sends page requests from outside the messenger to /blog there too.
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "~/server/config.server";
import { request } from "../../../tests/setup/helpers";
import { accessRedirect } from "./guard.server";

const CHROME = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1";
const MESSENGER = `${CHROME} MicroMessenger/8.0.49(0x18003130) NetType/WIFI Language/zh_CN`;
const page = (path: string, ua: string) => request(path, { headers: { "User-Agent": ua, Accept: "text/html" } });

afterEach(() => {
  delete process.env.ALLOW_ANY_BROWSER;
  resetConfig();
});

describe("ALLOW_ANY_BROWSER outside production", () => {
  it("unset: an ordinary browser may open the market", async () => {
    resetConfig();
    expect(await accessRedirect(page("/market", CHROME))).toBeNull();
  });

  it("false: an ordinary browser goes to /blog, the messenger and the blog stay open", async () => {
    process.env.ALLOW_ANY_BROWSER = "false";
    resetConfig();
    expect(await accessRedirect(page("/market", CHROME))).toBe("/blog");
    expect(await accessRedirect(page("/market", MESSENGER))).toBeNull();
    expect(await accessRedirect(page("/blog", CHROME))).toBeNull();
  });
});
