// The circle's search: what a query means (its terms), how a hit ranks, and which part of the
// text the result shows with the match marked. Pure: the server and the tests share it.

/** Fewer characters match too much of Chinese text to mean anything. */
export const SEARCH_MIN_TERM = 2;
/** Terms of a query beyond these are dropped (each must match: more only narrows). */
export const SEARCH_MAX_TERMS = 4;
/** A term longer than this is cut (a pasted paragraph is not a query). */
export const SEARCH_MAX_TERM_LENGTH = 32;
/** The query box's own limit. */
export const SEARCH_MAX_QUERY_LENGTH = 64;
/** SQLite's index of character pairs covers a text's first this many characters (posts and comments are at most 500). */
export const SEARCH_INDEXED_CHARS = 2000;
/** Results per page. */
export const SEARCH_PAGE_SIZE = 20;
/** The newest matches per kind (posts, comments) that are ranked; older ones rank below them anyway. */
export const SEARCH_CANDIDATES = 200;
/** A hit this old counts half as much as the same hit today. */
export const SEARCH_HALF_LIFE_HOURS = 24 * 14;
/** Characters shown around the first match. */
export const SNIPPET_LENGTH = 80;

export type SearchQuery = { ok: true; terms: string[]; text: string } | { ok: false; reason: "empty" | "too_short" };

/**
 * The query a student typed → its terms: full-width forms folded (NFKC), lower case, anything
 * that is not a letter or a digit is a separator; terms shorter than two characters are dropped,
 * as are repeats and terms inside a longer term; at most SEARCH_MAX_TERMS, longest first (the
 * longest term is the one the index looks up).
 */
export function normalizeSearchQuery(raw: string | null | undefined): SearchQuery {
  const folded = (raw ?? "").slice(0, SEARCH_MAX_QUERY_LENGTH * 2).normalize("NFKC").toLowerCase();
  const words = folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return { ok: false, reason: "empty" };
  const long = words.map((word) => [...word].slice(0, SEARCH_MAX_TERM_LENGTH).join("")).filter((word) => [...word].length >= SEARCH_MIN_TERM);
  const unique = [...new Set(long)].sort((a, b) => [...b].length - [...a].length);
  const terms = unique.filter((term, index) => !unique.slice(0, index).some((longer) => longer.includes(term))).slice(0, SEARCH_MAX_TERMS);
  if (terms.length === 0) return { ok: false, reason: "too_short" };
  return { ok: true, terms, text: terms.join(" ") };
}

/** A term the trigram indexes can look up (three characters or more); shorter ones take the two-character path. */
export function isIndexableTerm(term: string) {
  return [...term].length >= 3;
}

/**
 * The pairs of neighbouring characters of the terms, each once: a text holding a term holds all
 * its pairs (the index of pairs finds the candidates; the term itself is checked on them).
 */
export function termPairs(terms: string[]) {
  const pairs = new Set<string>();
  for (const term of terms) {
    const chars = [...term];
    for (let i = 0; i + 1 < chars.length; i += 1) pairs.add(chars[i]! + chars[i + 1]!);
  }
  return [...pairs];
}

/** Occurrences of a term in a text (case-folded like the query). */
export function countOccurrences(text: string, term: string) {
  const haystack = text.normalize("NFKC").toLowerCase();
  let count = 0;
  for (let at = haystack.indexOf(term); at !== -1; at = haystack.indexOf(term, at + term.length)) count += 1;
  return count;
}

/**
 * How a hit ranks: relevance (each term's occurrences, with diminishing returns, and a term in
 * the title counts as much again) times recency (halving every SEARCH_HALF_LIFE_HOURS).
 */
export function searchScore(input: { terms: string[]; title?: string | null; body: string; ageHours: number }) {
  let relevance = 1;
  for (const term of input.terms) {
    relevance += Math.log1p(countOccurrences(input.body, term));
    if (input.title) relevance += Math.log1p(countOccurrences(input.title, term));
  }
  const age = Math.max(0, input.ageHours);
  return relevance * 0.5 ** (age / SEARCH_HALF_LIFE_HOURS);
}

export type Segment = { text: string; hit: boolean };

/**
 * The part of a text a result shows: about SNIPPET_LENGTH characters around the first match,
 * as plain segments with the matches flagged. The page renders them as text (React escapes
 * them) with <mark> around the hits, so nothing a student wrote is ever read as HTML.
 */
export function highlight(text: string, terms: string[], length = SNIPPET_LENGTH): Segment[] {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  // Match on folded characters one by one, so positions stay those of the original text (each
  // distinct character folded once: a Chinese text repeats few of them).
  const foldedChar = new Map<string, string>();
  const folded = chars.map((char) => {
    let f = foldedChar.get(char);
    if (f === undefined) {
      const n = char.normalize("NFKC").toLowerCase();
      f = [...n].length === 1 ? n : char;
      foldedChar.set(char, f);
    }
    return f;
  });
  const hits = new Array<boolean>(chars.length).fill(false);
  let first = -1;
  for (const term of terms) {
    const termChars = [...term];
    for (let i = 0; i + termChars.length <= folded.length; i += 1) {
      if (termChars.every((c, k) => folded[i + k] === c)) {
        for (let k = 0; k < termChars.length; k += 1) hits[i + k] = true;
        if (first === -1 || i < first) first = i;
      }
    }
  }
  let start = 0;
  if (chars.length > length && first > length / 4) start = Math.min(first - Math.floor(length / 4), chars.length - length);
  const end = Math.min(chars.length, start + length);
  const segments: Segment[] = [];
  if (start > 0) segments.push({ text: "…", hit: false });
  for (let i = start; i < end; i += 1) {
    const last = segments[segments.length - 1];
    if (last && last.hit === hits[i] && last.text !== "…") last.text += chars[i];
    else segments.push({ text: chars[i]!, hit: hits[i]! });
  }
  if (end < chars.length) segments.push({ text: "…", hit: false });
  return segments;
}
