// The rendered-screenshot corpus (decision 021): 42 phone screenshots of the product SMS
// samples, 2–3 messages each, drawn here in Chromium as a messages app shows them (1170×2532,
// 1080×2400 and 1290×2796; light and dark; PNG and JPEG), read by the real recognition worker and
// parsed. Accuracy is counted per field (code, carrier, station, tracking number):
//   - against what the parser makes of the SMS text itself: what the OCR loses (asserted ≥ 97%);
//   - against the corpus labels (docs/product-rules.md "Pickup SMS labels"): OCR and parser together (reported; the parser
//     is judged on its own corpus).
// The worker's CPU time per warm screenshot and its resident memory are asserted too.
import fs from "node:fs";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinOcrLines } from "~/lib/ocr-lines";
import { OcrError, ocrImage, stopOcr } from "~/server/market/ocr.server";
import { recognizeText } from "~/server/market/recognition.server";
import { launchChromium, renderThread, screenshotCorpus, variantCorpus } from "../../scripts/lib/sms-screenshots.mjs";
import { scoreFields, type Fields, type Mismatch } from "./field-accuracy";

// The product samples (docs/product-rules.md "Pickup SMS labels": `company` is the carrier).
const samplesPath = new URL("./pickup-sms-samples-carrier.json", import.meta.url).pathname;
type Sample = { id: string; text: string; expected: Fields[] };
type Shot = { id: string; phone: string; theme: string; type: "png" | "jpeg"; text: string; expected: Fields[]; messages: unknown[]; variant?: string };
const samples = JSON.parse(fs.readFileSync(samplesPath, "utf8")) as Sample[];
const corpus: Shot[] = screenshotCorpus(samples);
// Screenshots as phones make them (scripts/lib/sms-screenshots.mjs VARIANTS): notification cards,
// 720 px JPEG q60, one pickup of two bubbles, 15–19 px text.
const variants: Shot[] = variantCorpus(samples);
// `npm test` reads a sample: the first thread screenshot of each appearance and the first JPEG
// (3 of 42), and the first screenshot of each variant family (5 of 12: cards of both systems,
// 720 px JPEG, one of two a pickup, a font size), so every look is read on every run;
// `npm run test:full` (TEST_FULL=1) reads both corpora whole.
const FULL = process.env.TEST_FULL === "1";
function firstOfEach(shots: Shot[], kind: (shot: Shot) => string) {
  const seen = new Set<string>();
  return shots.filter((shot) => {
    const key = kind(shot);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
// The per-run sample skips the pastes of several senders' SMS (their carrier labels lean on the
// neighbouring message): the full run reads them, and the variants read two bubbles every run.
// One per phone × look, so the warm CPU median is taken over several screenshots, not one or two.
const reading = FULL
  ? corpus
  : firstOfEach(corpus.filter((shot) => !shot.id.includes("paste")), (shot) => `${shot.phone}:${shot.type === "jpeg" ? "jpeg" : shot.theme}`);
const readingVariants = FULL ? variants : firstOfEach(variants, (shot) => shot.variant!.replace(/^font-\d+$/, "font"));

type Read = { shot: Shot; entries: Fields[]; reference: Fields[]; cpuMs: number; peakRssMb: number; text: string };
const reads: Read[] = [];

let browser: { close(): Promise<void> };
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stopOcr();
});

// A read that times out on a machine shared with other work is tried once more before it fails.
async function read(image: Uint8Array) {
  try {
    return await ocrImage(image, { owner: "corpus" });
  } catch (error) {
    if (!(error instanceof OcrError) || error.code !== "timeout") throw error;
    return ocrImage(image, { owner: "corpus" });
  }
}

function percent(correct: number, total: number) {
  return ((100 * correct) / Math.max(1, total)).toFixed(1);
}

describe("rendered screenshot corpus", () => {
  it("has at least 40 screenshots of 2–3 SMS, light and dark, on three 2024 phone sizes", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(corpus.every((shot) => shot.messages.length >= 2 && shot.messages.length <= 3)).toBe(true);
    expect(new Set(corpus.map((shot) => shot.theme))).toEqual(new Set(["light", "dark"]));
    expect(new Set(corpus.map((shot) => shot.phone)).size).toBe(3);
  });

  it("reads at least 97% of the fields, in at most 1 CPU-second per warm screenshot and 450 MB", async () => {
    const started = performance.now();
    // Every screenshot is drawn before the first read: Chromium drawing beside the worker shares
    // its cores and caches, which the worker's CPU time per read counts, so the 1 CPU-second
    // figure would measure the test's own drawing as well as the recogniser.
    const images: Uint8Array[] = [];
    for (const shot of reading) images.push(await renderThread(browser, shot));
    for (const [index, shot] of reading.entries()) {
      const result = await read(images[index]!);
      const text = joinOcrLines(result.lines);
      reads.push({ shot, text, entries: recognizeText(text), reference: recognizeText(shot.text), cpuMs: result.cpuMs, peakRssMb: result.peakRssMb });
    }

    let ocrTotal = 0, ocrCorrect = 0, labelTotal = 0, labelCorrect = 0;
    const ocrMisses: (Mismatch & { shot: string })[] = [];
    for (const read of reads) {
      const ocr = scoreFields(read.reference, read.entries);
      ocrTotal += ocr.total;
      ocrCorrect += ocr.correct;
      ocrMisses.push(...ocr.mismatches.map((miss) => ({ shot: read.shot.id, ...miss })));
      const labelled = scoreFields(read.shot.expected, read.entries);
      labelTotal += labelled.total;
      labelCorrect += labelled.correct;
    }
    const warm = reads.slice(1).map((read) => read.cpuMs).sort((a, b) => a - b);
    const median = warm[Math.floor(warm.length / 2)]!;
    const worst = warm[warm.length - 1]!;
    const peakRss = Math.max(...reads.map((read) => read.peakRssMb));
    process.stdout.write(
      `OCR corpus: ${reads.length} of ${corpus.length} screenshots${FULL ? "" : " (sample; npm run test:full reads all)"}; fields as the parser reads the SMS text ${ocrCorrect}/${ocrTotal} (${percent(ocrCorrect, ocrTotal)}%), ` +
        `against the labels ${labelCorrect}/${labelTotal} (${percent(labelCorrect, labelTotal)}%); ` +
        `warm CPU median ${median} ms, worst ${worst} ms; worker RSS peak ${peakRss} MB; ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s in all, load average ${os.loadavg().map((value) => value.toFixed(1)).join(" ")}\n`,
    );
    for (const miss of ocrMisses) process.stdout.write(`  OCR miss ${miss.shot} #${miss.entry} ${miss.field}: expected ${miss.expected}, read ${miss.actual}\n`);

    expect(ocrCorrect / ocrTotal).toBeGreaterThanOrEqual(0.97);
    expect(median).toBeLessThanOrEqual(1000);
    expect(peakRss).toBeLessThanOrEqual(450);
  });

  it("reads at least 95% of the fields of the screenshots as phones make them, per variant", async () => {
    const started = performance.now();
    const perVariant = new Map<string, { correct: number; total: number; labelCorrect: number; labelTotal: number; shots: number }>();
    const misses: string[] = [];
    const cpuMs: number[] = [];
    // Drawn before the first read, as above, so the CPU figures are the worker's alone.
    const images: Uint8Array[] = [];
    for (const shot of readingVariants) images.push(await renderThread(browser, shot));
    for (const [index, shot] of readingVariants.entries()) {
      const result = await read(images[index]!);
      cpuMs.push(result.cpuMs);
      const entries = recognizeText(joinOcrLines(result.lines));
      const ocr = scoreFields(recognizeText(shot.text), entries);
      const labelled = scoreFields(shot.expected, entries);
      const row = perVariant.get(shot.variant!) ?? { correct: 0, total: 0, labelCorrect: 0, labelTotal: 0, shots: 0 };
      row.correct += ocr.correct;
      row.total += ocr.total;
      row.labelCorrect += labelled.correct;
      row.labelTotal += labelled.total;
      row.shots += 1;
      perVariant.set(shot.variant!, row);
      misses.push(...ocr.mismatches.map((miss) => `  OCR miss ${shot.id} #${miss.entry} ${miss.field}: expected ${miss.expected}, read ${miss.actual}`));
    }
    let correct = 0, total = 0;
    const parts: string[] = [];
    for (const [variant, row] of perVariant) {
      correct += row.correct;
      total += row.total;
      parts.push(`${variant} ${row.correct}/${row.total} (${percent(row.correct, row.total)}%, labels ${percent(row.labelCorrect, row.labelTotal)}%, ${row.shots} shots)`);
    }
    // The worker's CPU time per image (the first read also loads the model, as in the thread corpus).
    const warm = cpuMs.slice(1).sort((a, b) => a - b);
    process.stdout.write(
      `OCR variants: ${readingVariants.length} of ${variants.length} screenshots${FULL ? "" : " (sample)"}; fields ${correct}/${total} (${percent(correct, total)}%); ${parts.join("; ")}; ` +
        `warm CPU median ${warm[Math.floor(warm.length / 2)] ?? cpuMs[0]} ms, worst ${warm[warm.length - 1] ?? cpuMs[0]} ms; ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s, load average ${os.loadavg().map((value) => value.toFixed(1)).join(" ")}\n`,
    );
    for (const miss of misses) process.stdout.write(`${miss}\n`);
    expect(correct / total).toBeGreaterThanOrEqual(0.95);
  });
});
