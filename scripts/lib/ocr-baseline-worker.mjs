// The recognition pipeline before decision 021, for scripts/ocr-measure.mjs --baseline only:
// @gutenye/ocr-node as shipped (its detector at full input size, OpenCV in WebAssembly, default
// ONNX threads) after a resize to 780 px wide. Same messages as workers/ocr.worker.mjs.
import sharp from "sharp";

const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};
let enginePromise;
process.on("message", async ({ id, image }) => {
  try {
    enginePromise ??= (async () => {
      const before = process.cpuUsage();
      const started = performance.now();
      const { default: Ocr } = await import("@gutenye/ocr-node");
      const engine = await Ocr.create();
      process.send({ type: "loaded", loadMs: Math.round(performance.now() - started), cpuMs: cpuMs(before), rssMb: rssMb() });
      return engine;
    })();
    const engine = await enginePromise;
    const before = process.cpuUsage();
    const started = performance.now();
    const prepared = await sharp(Buffer.from(image)).rotate().flatten({ background: "#ffffff" }).resize({ width: 780 }).png().toBuffer();
    const lines = await engine.detect(prepared);
    process.send({ type: "result", id, lines, cpuMs: cpuMs(before), wallMs: Math.round(performance.now() - started), rssMb: rssMb() });
  } catch (error) {
    process.send({ type: "result", id, error: String(error) });
  }
});
process.on("disconnect", () => process.exit(0));
