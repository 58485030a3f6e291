// /login is the same page as /crLogin (market dialogs link here).
export { action, default, loader, meta } from "./crLogin";
