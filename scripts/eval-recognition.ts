// npm run eval:recognition [-- --skip-screenshots] [-- --misses] (misses of the tuning parts only)
// Field and code accuracy of the recogniser per corpus: the invented corpora (generated, hand-written
// hold-out, samples), the real messages (tuning part and hold-out part), then the rendered
// screenshot corpus (tests/ocr, slow: drawn in Chromium and read by the OCR worker; skip with
// --skip-screenshots). Labels and conventions: docs/recognition.md.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { formatScore, readCorpus, scoreCorpus } from "../tests/support/recognition-score";

const fixtures = path.resolve(import.meta.dirname, "../tests/fixtures");
const corpora: [string, string][] = [
  ["invented: generated", "pickup-sms-corpus.json"],
  ["invented: hand-written", "pickup-sms-holdout.json"],
  ["invented: samples", "pickup-sms-samples.json"],
  ["real: tuning part", "pickup-sms-real.json"],
  ["real: hold-out", "pickup-sms-real-holdout.json"],
];
const args = new Set(process.argv.slice(2));

for (const [name, file] of corpora) {
  const score = scoreCorpus(readCorpus(path.join(fixtures, file)));
  console.log(formatScore(name, score));
  // The hold-out's misses stay unread: it is the estimate for messages nobody has seen.
  if (args.has("--misses") && !file.includes("holdout")) for (const miss of score.misses) console.log(`    ${miss.id} ${miss.field}: expected ${miss.expected} got ${miss.actual}`);
}

if (args.has("--skip-screenshots")) {
  console.log("screenshots: skipped (--skip-screenshots)");
} else {
  console.log("screenshots: drawing and reading the rendered corpus (tests/ocr), about a minute or two…");
  const run = spawnSync("npx", ["vitest", "run", "--config", "vitest.ocr.config.ts"], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  const lines = run.stdout.split("\n").filter((text) => text.startsWith("OCR corpus:") || text.startsWith("OCR variants:"));
  // The stage's own summary lines; when it failed before printing them, its failure lines only.
  console.log(lines.length > 0 ? lines.join("\n") : run.stdout.split("\n").filter((text) => /×|Error|timed out|expected/.test(text)).slice(0, 10).join("\n"));
  process.exitCode = run.status ?? 1;
}
