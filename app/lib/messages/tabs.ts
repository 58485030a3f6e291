import { APP_NAME } from "./app-info";
import * as common from "./common";

export const tabs = {
  schedule: common.schedule,
  circle: common.circle,
  market: APP_NAME,
  backpack: common.backpack,
} as const;
