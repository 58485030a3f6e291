import { APP_NAME } from "./app-info";
import { Common } from "./common";

export const tabs = {
  schedule: Common.schedule,
  circle: Common.circle,
  market: APP_NAME,
  backpack: Common.backpack,
} as const;
