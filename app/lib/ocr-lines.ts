// OCR answers lines of text with their boxes; the pickup parser wants messages. Lines of one
// chat bubble are joined without a separator (Chinese wraps anywhere, a code or tracking number
// may be cut in two), a wider vertical gap or a line starting with a signature tag starts a new
// message. Pure, so it is tested without the model.

export type OcrLine = { text: string; box: number[][]; mean?: number };

type Row = { top: number; bottom: number; left: number; text: string };

const HAN = "\\u3400-\\u9fff\\uf900-\\ufaff";
const DIGIT_OR_LETTER = "0-9A-Za-z\\uff10-\\uff19\\uff21-\\uff3a\\uff41-\\uff5a";
const SPACE_BY_HAN = new RegExp(`(?<=[${HAN}])\\s+(?=[${DIGIT_OR_LETTER}])|(?<=[${DIGIT_OR_LETTER}])\\s+(?=[${HAN}])`, "g");
const FULL_WIDTH = /[\uff01-\uff5e]/;
const SPACE_IN_CODE = /(?<=[0-9\uff10-\uff19\-\uff0d])\s+(?=[0-9\uff10-\uff19\-\uff0d])/g;

/**
 * The recogniser puts a space where glyphs stand far apart. Between a Chinese character and a
 * digit or letter that space means nothing to a pickup message ("南湖家园 2 号楼"); inside a line
 * drawn in full-width forms, whose digits always stand far apart, a space between digits is the
 * glyphs' own spacing ("１5－2－3 3０7"). Spaces between half-width digits stay: they may part two codes.
 */
export function tidyOcrText(text: string): string {
  const tidy = text.trim().replace(SPACE_BY_HAN, "");
  return FULL_WIDTH.test(tidy) ? tidy.replace(SPACE_IN_CODE, "") : tidy;
}

function rowOf(line: OcrLine): Row | null {
  if (!line.text.trim() || !Array.isArray(line.box) || line.box.length === 0) return null;
  const ys = line.box.map((point) => point[1] ?? 0);
  const xs = line.box.map((point) => point[0] ?? 0);
  return { top: Math.min(...ys), bottom: Math.max(...ys), left: Math.min(...xs), text: tidyOcrText(line.text) };
}

export function joinOcrLines(lines: OcrLine[], minConfidence = 0.5): string {
  const rows = lines
    .filter((line) => line.mean === undefined || line.mean >= minConfidence)
    .map(rowOf)
    .filter((row): row is Row => row !== null)
    .sort((a, b) => a.top - b.top || a.left - b.left);
  if (rows.length === 0) return "";
  // Boxes on one visual row (their vertical centres within half a line) are one line, left to right.
  const merged: Row[] = [];
  for (const row of rows) {
    const last = merged[merged.length - 1];
    const height = row.bottom - row.top;
    if (last && Math.abs((last.top + last.bottom) / 2 - (row.top + row.bottom) / 2) < height / 2) {
      const parts = [last, row].sort((a, b) => a.left - b.left);
      merged[merged.length - 1] = {
        top: Math.min(last.top, row.top),
        bottom: Math.max(last.bottom, row.bottom),
        left: parts[0]!.left,
        text: `${parts[0]!.text} ${parts[1]!.text}`,
      };
    } else {
      merged.push({ ...row });
    }
  }
  const heights = merged.map((row) => row.bottom - row.top).sort((a, b) => a - b);
  const lineHeight = heights[Math.floor(heights.length / 2)] || 1;
  let text = "";
  for (let i = 0; i < merged.length; i += 1) {
    const next = merged[i + 1];
    const endsMessage = !next || next.top - merged[i]!.bottom > lineHeight || next.text.startsWith("【");
    // The recogniser reads a message's closing "。" after a number as a letter o.
    const row = endsMessage ? merged[i]!.text.replace(/(\d)[oO]$/, "$1。") : merged[i]!.text;
    text += row + (next ? (endsMessage ? "\n\n" : "") : "");
  }
  return text;
}
