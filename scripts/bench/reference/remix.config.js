// The reference app of `npm run bench`: a bare Remix v2 app, classic compiler, built
// with the repository's node_modules (../../../node_modules, found by walking up). It follows the
// app's future flags so that both sides run the same framework code paths.
import appConfig from "../../../remix.config.js";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: "esm",
  serverPlatform: "node",
  tailwind: false,
  postcss: false,
  future: { ...appConfig.future },
};
