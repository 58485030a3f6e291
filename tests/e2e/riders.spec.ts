// A slot run by a team on 390×844 phones (decision 038): the admin adds a rider on /admin/riders,
// assigns the slot's order on /admin/pick-list, the rider signs in and lands on their run, marks
// the parcel 已取到, reads the label's phone tail against the recipient's, types the handover code
// the student reads on the order page, and the order is completed. Once with JavaScript, once
// without (the pages are server-rendered forms). SCREENSHOTS=<dir> keeps light and dark shots.
import crypto from "node:crypto";
import { createOperatorWithCli, phone, shots, signInOperator } from "./admin-helpers";
import { expect, test } from "./fixtures";
import { insertPaidOrder } from "./orders-db";

for (const javaScriptEnabled of [true, false]) {
  test(`the admin assigns, the rider picks up, hands over with the code and completes (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    // Three phones and four logins on a shared 2-core machine.
    test.setTimeout(300_000);
    const tag = javaScriptEnabled ? "js" : "nojs";
    const order = await insertPaidOrder();
    const riderAccount = { username: `rider-${crypto.randomBytes(3).toString("hex")}`, password: "rider-pass-1" };

    // The admin adds the rider.
    const adminPhone = await phone(browser, { javaScriptEnabled });
    const admin = adminPhone.page;
    await signInOperator(admin, createOperatorWithCli("管理员小周", "admin"), /\/admin\/orders$/);
    await admin.getByRole("link", { name: "骑手管理" }).click();
    await expect(admin).toHaveURL(/\/admin\/riders$/);
    const form = admin.getByRole("form", { name: "添加骑手" });
    await form.getByLabel("姓名").fill(`骑手${tag}`);
    await form.getByLabel("手机号").fill("1391234567");
    await form.getByLabel("登录名").fill(riderAccount.username);
    await form.getByLabel("初始密码").fill(riderAccount.password);
    await form.getByRole("button", { name: "创建骑手" }).click();
    await expect(admin.getByText("请输入正确的手机号")).toBeVisible();
    await expect(form.getByLabel("姓名")).toHaveValue(`骑手${tag}`);
    await form.getByLabel("手机号").fill("13912345678");
    await form.getByLabel("初始密码").fill(riderAccount.password);
    await form.getByRole("button", { name: "创建骑手" }).click();
    await expect(admin.getByRole("status")).toContainText("骑手已创建");
    await expect(admin.getByTestId("rider").filter({ hasText: `骑手${tag}` })).toContainText("可接单");
    if (javaScriptEnabled) await shots(admin, "roster");

    // The pick list of the order's slot: the station, the full code, its deadline; assign the selection.
    await admin.goto(`/admin/pick-list?slot=${encodeURIComponent(order.slot)}`);
    const station = admin.getByRole("region", { name: "梨园菜鸟驿站" });
    await expect(station).toContainText("6-2-1101");
    await expect(station).toContainText("驿站截止：今天18:00前");
    await expect(station).toContainText(order.number);
    await expect(station).toContainText("未分配");
    await admin.getByLabel(`选择 ${order.number}`).check();
    await admin.locator("#assign-selected select").selectOption({ label: `骑手${tag}` });
    await admin.getByRole("button", { name: "分配所选订单" }).click();
    await expect(admin.getByRole("status")).toContainText("已分配 1 单");
    await expect(admin.getByRole("region", { name: "梨园菜鸟驿站" })).toContainText(`骑手${tag}`);
    if (javaScriptEnabled) await shots(admin, "pick-list");

    // The rider signs in and lands on the run.
    const riderPhone = await phone(browser, { javaScriptEnabled });
    const rider = riderPhone.page;
    await signInOperator(rider, riderAccount, /\/admin\/run$/);
    await rider.goto(`/admin/run?slot=${encodeURIComponent(order.slot)}`);
    await expect(rider.getByTestId("run-parcel")).toContainText("6-2-1101");
    if (javaScriptEnabled) await shots(rider, "run-pick");
    await rider.getByRole("button", { name: "标记已取到 6-2-1101" }).click();
    const drop = rider.getByTestId("run-drop");
    await expect(drop).toContainText("512");
    await expect(drop).toContainText("王小明");
    await expect(drop).toContainText("手机尾号 1234");
    await expect(rider.getByTestId("recipient-mismatch")).toContainText("面单尾号 0000 与收件人手机尾号 1234 不一致");
    if (javaScriptEnabled) await shots(rider, "run-drop");
    // A rider is kept off the other admin pages.
    await rider.goto("/admin/orders");
    await expect(rider).toHaveURL(/\/admin\/run$/);
    await rider.goto(`/admin/run?slot=${encodeURIComponent(order.slot)}`);

    // The student reads the code on the order page.
    const studentPhone = await phone(browser, { javaScriptEnabled, cookie: order.cookie });
    const student = studentPhone.page;
    await student.goto(`/express/orders/${order.number}`);
    const code = (await student.getByTestId("handover-code").locator("p.font-mono").textContent())!.trim();
    expect(code).toMatch(/^\d{4}$/);
    if (javaScriptEnabled) await shots(student, "student-code");

    // A wrong code first, then the right one.
    const wrong = String((Number(code) + 1) % 10000).padStart(4, "0");
    await rider.getByLabel("交接码").fill(wrong);
    await rider.getByRole("button", { name: "确认送达" }).click();
    await expect(rider.getByRole("alert").filter({ hasText: "交接码不正确，还可以再试 4 次" })).toBeVisible();
    await rider.getByLabel("交接码").fill(code);
    await rider.getByRole("button", { name: "确认送达" }).click();
    await expect(rider.getByRole("status")).toContainText(`${order.number} 已送达，订单已完成`);

    await student.reload();
    await expect(student.getByText("订单已完成").first()).toBeVisible();
    await expect(student.getByTestId("handover-code")).toHaveCount(0);
    for (const open of [adminPhone, riderPhone, studentPhone]) await open.context.close();
  });
}
