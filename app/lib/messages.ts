// Every user-facing string of the app (zh-CN). Where the product rules give a Chinese message it is
// used verbatim. Each group lives in its own module under messages/ so that a page's JavaScript
// carries only the groups its components read. Server code may import this namespace
// (`import * as msg from "~/lib/messages"`); code that reaches the browser imports its groups'
// files (`import { app } from "~/lib/messages/app"`): the namespace pulls a chunk of every group
// into the page (decision 025). A string written in two groups goes to messages/common.ts (a const
// enum, inlined by the compiler); messages.test.ts fails on a second copy. Add a key to its group's
// file; add a group as a new file plus a line here.
export { APP_NAME, APP_VERSION } from "./messages/app-info";
export { app } from "./messages/app";
export { tabs } from "./messages/tabs";
export { titles } from "./messages/titles";
export { errors } from "./messages/errors";
export { refusals } from "./messages/refusals";
export { wechat } from "./messages/wechat";
export { campus } from "./messages/campus";
export { settings } from "./messages/settings";
export { blog } from "./messages/blog";
export { customerService } from "./messages/customerService";
export { treasure } from "./messages/treasure";
export { login } from "./messages/login";
export { admin } from "./messages/admin";
export { adminNav } from "./messages/adminNav";
export { adminOrders } from "./messages/adminOrders";
export { adminOrderData } from "./messages/adminOrderData";
export { adminRefunds } from "./messages/adminRefunds";
export { adminReference } from "./messages/adminReference";
export { market } from "./messages/market";
export { backpack } from "./messages/backpack";
export { profile } from "./messages/profile";
export { schedule } from "./messages/schedule";
export { mutualHelp } from "./messages/mutualHelp";
export { helpDates } from "./messages/helpDates";
export { circle } from "./messages/circle";
export { postDetail } from "./messages/postDetail";
export { postSheets } from "./messages/postSheets";
export { publish } from "./messages/publish";
export { myPosts } from "./messages/myPosts";
export { forumData } from "./messages/forumData";
export { moderation } from "./messages/moderation";
export { commentSheet } from "./messages/commentSheet";
export { notify } from "./messages/notify";
export { pay } from "./messages/pay";
export { orders } from "./messages/orders";
export { orderPage } from "./messages/order-page";
export { orderDialogs } from "./messages/order-dialogs";
export { payPage } from "./messages/pay-page";
export { coupons } from "./messages/coupons";
export { grades } from "./messages/grades";

/** @deprecated in components: `import * as msg` instead, so pages ship only what they read. */
export { msg } from "./messages/all";
