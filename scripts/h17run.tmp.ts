import fs from "node:fs";
import { parsePickupSms } from "../app/lib/pickup-parser";
const file = process.argv[2];
const samples = JSON.parse(fs.readFileSync(file, "utf8"));
let fields = 0, ok = 0, fp = 0;
for (const s of samples) {
  const got = parsePickupSms(s.text).map(({ pickupCode, company, stationName, trackingNumber }) => ({ pickupCode, company, stationName, trackingNumber }));
  const n = Math.max(got.length, s.expected.length);
  if (s.expected.length === 0 && got.length) fp++;
  let bad = false;
  for (let i = 0; i < n; i++) for (const k of ["pickupCode", "company", "stationName", "trackingNumber"]) {
    fields++;
    if ((got[i] as any)?.[k] === s.expected[i]?.[k] && got[i] && s.expected[i]) ok++; else bad = true;
  }
  if (bad) console.log(s.id, JSON.stringify(s.text).slice(0, 300), "\n  got", JSON.stringify(got), "\n  exp", JSON.stringify(s.expected));
}
console.log(`fields ${ok}/${fields} = ${(100 * ok / fields).toFixed(2)}%  fp ${fp}`);
