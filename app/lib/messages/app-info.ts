export const APP_NAME = "校园帮";
export const APP_VERSION = "1.0.0";
