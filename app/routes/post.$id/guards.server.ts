// The guard of /post/:id and its sheets: the id in the URL, or the 404 that app/server/ never answers itself.

/** "/post/12" → 12; anything else is a 404. */
export function requirePostId(value: string | undefined) {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new Response("Not Found", { status: 404 });
  return Number(value);
}
