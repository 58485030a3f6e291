import { describe, expect, it } from "vitest";
import { RECOGNITION_EXTRA_PLACES, RECOGNITION_QUEUE_BYTES, RECOGNITION_QUEUE_PLACES, admitImage, type Admission, type LineState } from "./recognition-queue";

const KB = 1024;
const MB = 1024 * KB;
const line = (images: number, students: number, mine: number, bytes = images * 100 * KB): LineState => ({ images, students, mine, bytes });
const OK: Admission = { ok: true };
const OWN: Admission = { ok: false, reason: "own-turn" };
const FULL: Admission = { ok: false, reason: "full" };

describe("admitImage: a slot for every student, a 503 only when the line is truly full", () => {
  it.each<[string, LineState, number, Admission]>([
    ["an empty line", line(0, 0, 0), 100 * KB, OK],
    ["a fifth student after four with three screenshots each", line(12, 4, 0), 100 * KB, OK],
    ["that fifth student's second screenshot", line(13, 5, 1), 100 * KB, OK],
    ["a student's fourth screenshot", line(3, 1, 3), 100 * KB, OWN],
    ["a new student when second and third images fill their share", line(RECOGNITION_EXTRA_PLACES + 8, 8, 0), 100 * KB, OK],
    ["an extra image when their share is full", line(RECOGNITION_EXTRA_PLACES + 8, 8, 1), 100 * KB, OWN],
    ["a new student when every place is taken", line(RECOGNITION_QUEUE_PLACES, 12, 0), 100 * KB, FULL],
    ["a new student when one place is left", line(RECOGNITION_QUEUE_PLACES - 1, 13, 0), 100 * KB, OK],
    ["a new student's 8 MB image when the memory is nearly spent", line(20, 20, 0, RECOGNITION_QUEUE_BYTES - 4 * MB), 8 * MB, FULL],
    ["a new student's small image then", line(20, 20, 0, RECOGNITION_QUEUE_BYTES - 4 * MB), 100 * KB, OK],
    ["an extra 8 MB image past two thirds of the memory", line(9, 5, 2, (RECOGNITION_QUEUE_BYTES * 2) / 3 - 4 * MB), 8 * MB, OWN],
  ])("%s", (_, state, bytes, expected) => {
    expect(admitImage(state, bytes)).toEqual(expected);
  });

  it("keeps a third of the line for students with nothing in it", () => {
    // However the extras are spread, a newcomer finds a place until every place is taken.
    for (let students = 1; students <= RECOGNITION_QUEUE_PLACES; students++) {
      const extras = Math.min(RECOGNITION_EXTRA_PLACES, students * 2);
      const images = students + extras;
      const expected = images >= RECOGNITION_QUEUE_PLACES ? FULL : OK;
      expect(admitImage(line(images, students, 0), 100 * KB), `${students} students, ${extras} extra images`).toEqual(expected);
    }
    expect(RECOGNITION_QUEUE_PLACES - RECOGNITION_EXTRA_PLACES).toBeGreaterThanOrEqual(RECOGNITION_QUEUE_PLACES / 3);
  });
});
