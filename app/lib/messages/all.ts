// The whole catalogue as one object, for server-side code that wants it. Components must not
// import this: it would ship every group to the browser.
import { app } from "./app";
import { tabs } from "./tabs";
import { titles } from "./titles";
import { errors } from "./errors";
import { wechat } from "./wechat";
import { campus } from "./campus";
import { settings } from "./settings";
import { blog } from "./blog";
import { customerService } from "./customerService";
import { treasure } from "./treasure";
import { login } from "./login";
import { admin } from "./admin";
import { market } from "./market";
import { backpack } from "./backpack";
import { schedule } from "./schedule";
import { mutualHelp } from "./mutualHelp";
import { helpDates } from "./helpDates";
import { circle } from "./circle";
import { postDetail } from "./postDetail";
import { postSheets } from "./postSheets";
import { publish } from "./publish";
import { myPosts } from "./myPosts";
import { forumData } from "./forumData";
import { moderation } from "./moderation";
import { commentSheet } from "./commentSheet";

export const msg = { commentSheet, app, tabs, titles, errors, wechat, campus, settings, blog, customerService, treasure, login, admin, market, backpack, schedule, mutualHelp, helpDates, circle, postDetail, postSheets, publish, myPosts, forumData, moderation } as const;
