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
import { ocrImage, stopOcr } from "~/server/errands/ocr.server";
import { recognizeText } from "~/server/errands/recognition.server";
import { launchChromium, renderThread, screenshotCorpus } from "../../scripts/lib/sms-screenshots.mjs";
import { scoreFields, type Fields, type Mismatch } from "./field-accuracy";

// The product samples (docs/product-rules.md "Pickup SMS labels": `company` is the carrier).
const samplesPath = new URL("./pickup-sms-samples-carrier.json", import.meta.url).pathname;
type Sample = { id: string; text: string; expected: Fields[] };
type Shot = { id: string; phone: string; theme: string; type: "png" | "jpeg"; text: string; expected: Fields[]; messages: unknown[] };
const corpus: Shot[] = screenshotCorpus(JSON.parse(fs.readFileSync(samplesPath, "utf8")) as Sample[]);
// `npm test` reads a sample: the first screenshot of each phone × appearance × format that the corpus has (9 of
// 42), so every way a screenshot can look is read on every run; `npm run test:full`
// (TEST_FULL=1) reads the whole corpus.
const FULL = process.env.TEST_FULL === "1";
const sampled = new Set<string>();
const reading = FULL
  ? corpus
  : corpus.filter((shot) => {
      const kind = `${shot.phone}/${shot.theme}/${shot.type}`;
      if (sampled.has(kind)) return false;
      sampled.add(kind);
      return true;
    });

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
    // Chromium draws the next screenshot while the worker reads this one (two cores).
    let next: Promise<Uint8Array> = renderThread(browser, reading[0]);
    for (const [index, shot] of reading.entries()) {
      const image = await next;
      if (index + 1 < reading.length) next = renderThread(browser, reading[index + 1]);
      const result = await ocrImage(image, { owner: "corpus" });
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
});
