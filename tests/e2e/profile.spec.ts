// A student logged in with the school account has no circle name yet: the post page asks for one,
// the profile refuses a bad one beside the field, and after saving the comment sheet opens and the
// comment is posted under that name. The backpack shows the same name, never the real one.
import sharp from "sharp";
import { expect, test } from "./fixtures";

// Without JavaScript the profile form is a form post (app/server/users/profile.db.test.ts: the nickname,
// its refusal, the way on to the comment, the avatar); the backpack's no-JS journey is appearance.spec.ts.
for (const javaScriptEnabled of [true]) {
  test.describe(`${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("a student without a nickname sets one on the way to a comment, and the comment goes on", async ({ page, loginAsStudent }) => {
      const nickname = javaScriptEnabled ? "评论的阿明" : "无脚本阿明";
      await loginAsStudent({ real_name: "张明" }); // no nickname: what a school-account login leaves
      await page.goto("/backpack");
      await expect(page.getByText("校园帮同学")).toBeVisible();
      await expect(page.getByText("张明")).toHaveCount(0);

      await page.goto("/post/1");
      await page.getByRole("link", { name: "请先完善个人资料后再评论" }).click();
      await expect(page).toHaveURL(/\/backpack\/profile\?redirectTo=%2Fpost%2F1%2Fcomment$/);
      await expect(page.getByText("张明")).toBeVisible(); // the real name, to its owner, here only
      await page.getByLabel("昵称").fill("13812345678");
      await page.getByRole("button", { name: "保存" }).click();
      await expect(page.getByText("昵称不能是一串数字（不要用手机号或学号当昵称）")).toBeVisible();
      await expect(page.getByLabel("昵称")).toHaveValue("13812345678");
      await page.getByLabel("昵称").fill(nickname);
      await page.getByRole("button", { name: "保存" }).click();

      await expect(page).toHaveURL(/\/post\/1\/comment$/);
      const text = `设好昵称后的评论 ${Date.now()}`;
      await page.getByRole("dialog").getByRole("textbox").fill(text);
      await page.getByRole("dialog").getByRole("button", { name: "发送" }).click();
      await expect(page.getByText(text)).toBeVisible();
      await expect(page.locator("li", { hasText: text }).getByText(nickname)).toBeVisible();

      await page.goto("/backpack");
      await expect(page.getByText(nickname)).toBeVisible();

      // An avatar: a picture becomes a square, shown on the backpack; a text file is refused by name.
      await page.goto("/backpack/profile");
      await page.getByLabel("头像").setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a picture") });
      await page.getByRole("button", { name: "上传头像" }).click();
      await expect(page.getByText("只能上传图片文件")).toBeVisible();
      const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer();
      await page.getByLabel("头像").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
      await page.getByRole("button", { name: "上传头像" }).click();
      await expect(page.getByRole("status")).toHaveText("头像已更新");
      await page.goto("/backpack");
      const avatar = page.locator('img[src^="/uploads/"]').first();
      await expect(avatar).toBeVisible();
      expect(await avatar.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([256, 256]);
    });
  });
}
