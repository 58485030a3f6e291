// Scores the SMS recogniser over a labelled corpus (labels: docs/recognition.md). Shared by the
// unit corpus test and `npm run eval:recognition`, so both print the same figures.
//   - fields: entry i parsed against entry i expected, four fields each; a missing or an extra
//     entry counts its four fields wrong;
//   - codes: of the expected entries that carry a pickup code, how many codes the parser found in
//     that text (anywhere among its entries, exactly);
//   - false positives: entries parsed from a text labelled with none.
import fs from "node:fs";
import { parsePickupSms } from "~/lib/pickup-parser";

export type Expected = { pickupCode: string | null; company: string | null; stationName: string | null; trackingNumber: string | null };
export type Case = { id: string; text: string; expected: Expected[]; source?: string };
export const FIELDS = ["pickupCode", "company", "stationName", "trackingNumber"] as const;

export function readCorpus(file: string): Case[] {
  return JSON.parse(fs.readFileSync(file, "utf8")) as Case[];
}

export type Miss = { id: string; field: string; expected: string | null; actual: string | null };

export function scoreCorpus(cases: Case[], parse: (text: string) => Expected[] = parsePickupSms) {
  let fields = 0, exactFields = 0, codes = 0, codesFound = 0, falsePositives = 0, exactCases = 0;
  const misses: Miss[] = [];
  for (const sample of cases) {
    const parsed = parse(sample.text);
    if (sample.expected.length === 0 && parsed.length > 0) falsePositives += parsed.length;
    const found = new Set(parsed.map((entry) => entry.pickupCode));
    for (const want of sample.expected) {
      if (want.pickupCode === null) continue;
      codes += 1;
      if (found.has(want.pickupCode)) codesFound += 1;
    }
    let caseExact = true;
    for (let i = 0; i < Math.max(parsed.length, sample.expected.length); i += 1) {
      for (const field of FIELDS) {
        fields += 1;
        const got = parsed[i]?.[field] ?? null;
        const want = sample.expected[i]?.[field] ?? null;
        if (parsed[i] && sample.expected[i] && got === want) exactFields += 1;
        else {
          caseExact = false;
          misses.push({ id: sample.id, field, expected: sample.expected[i] ? want : "(no entry)", actual: parsed[i] ? got : "(no entry)" });
        }
      }
    }
    if (caseExact) exactCases += 1;
  }
  return {
    cases: cases.length,
    exactCases,
    fields,
    exactFields,
    fieldAccuracy: fields === 0 ? 1 : exactFields / fields,
    codes,
    codesFound,
    codeAccuracy: codes === 0 ? 1 : codesFound / codes,
    falsePositives,
    misses,
  };
}

export function formatScore(name: string, score: ReturnType<typeof scoreCorpus>) {
  const pct = (value: number) => `${(100 * value).toFixed(1)}%`;
  return (
    `${name.padEnd(28)} ${String(score.cases).padStart(4)} texts  fields ${score.exactFields}/${score.fields} (${pct(score.fieldAccuracy)})  ` +
    `codes ${score.codesFound}/${score.codes} (${pct(score.codeAccuracy)})  fully right ${score.exactCases}/${score.cases}  false positives ${score.falsePositives}`
  );
}
