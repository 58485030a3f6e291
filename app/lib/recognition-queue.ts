// Who gets a place in the screenshot recognition line (decision 031; the line's order is
// decision 021's rounds: everyone's first image before anyone's second). Pure: the queue in
// app/server/market/ocr.server.ts asks it about every image before taking it.
//
// Each student has a slot: the first image of a student with nothing in the line is taken as
// long as there is a place at all. A student's second and third images share a part of the
// line only (EXTRA_PLACES of the PLACES), so a few students with full uploads can never fill it
// for everybody else: a student without an image in the line is refused only when the line is
// truly full (every place taken, or the memory for waiting images spent).

import { RECOGNITION_PER_USER_LIMIT } from "./screenshot-recognition";

/** Images waiting or being read, over all students. */
export const RECOGNITION_QUEUE_PLACES = 36;
/** Of those, the places students' second and third images may take. */
export const RECOGNITION_EXTRA_PLACES = 24;
/** Bytes of images the line holds in memory (an image is at most 8 MB; shrunk ones ~50–300 KB). */
export const RECOGNITION_QUEUE_BYTES = 96 * 1024 * 1024;

export type LineState = {
  /** Images in the line (waiting or being read). */
  images: number;
  /** Students with an image in the line. */
  students: number;
  /** Bytes of the images in the line. */
  bytes: number;
  /** This student's images in the line. */
  mine: number;
};

export type Admission =
  | { ok: true }
  /** This student already has a full upload, or their extra image finds the shared part full: after their own. */
  | { ok: false; reason: "own-turn" }
  /** Every place is taken: come back later. */
  | { ok: false; reason: "full" };

export function admitImage(line: LineState, imageBytes: number): Admission {
  if (line.mine >= RECOGNITION_PER_USER_LIMIT) return { ok: false, reason: "own-turn" };
  if (line.images >= RECOGNITION_QUEUE_PLACES || line.bytes + imageBytes > RECOGNITION_QUEUE_BYTES) return { ok: false, reason: "full" };
  if (line.mine > 0) {
    // Second and third images: only within their share, in places and in bytes.
    const extras = line.images - line.students;
    const extraBytes = (RECOGNITION_QUEUE_BYTES * RECOGNITION_EXTRA_PLACES) / RECOGNITION_QUEUE_PLACES;
    if (extras >= RECOGNITION_EXTRA_PLACES || line.bytes + imageBytes > extraBytes) return { ok: false, reason: "own-turn" };
  }
  return { ok: true };
}
