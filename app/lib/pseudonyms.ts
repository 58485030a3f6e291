// Anonymous people in a thread: each gets a name of their own inside that thread (匿名·青柠),
// drawn at random among the names nobody in the thread has yet, so three anonymous people can be
// told apart, and nothing links one thread's names to another's. The server stores the draw
// (thread_pseudonyms), so a name never changes.

/** Which name an anonymous participant gets: a random one of the `count` names still free; all taken → the next numbered round. */
export function pickPseudonymIndex(taken: ReadonlySet<number>, count: number, random: (n: number) => number): number {
  const free: number[] = [];
  for (let i = 0; i < count; i += 1) if (!taken.has(i)) free.push(i);
  if (free.length > 0) return free[random(free.length)]!;
  let next = count;
  while (taken.has(next)) next += 1;
  return next;
}

/** The name of an index: the list's name, then a number from the second round on (青柠2). */
export function pseudonymName(index: number, names: readonly string[], template: (name: string) => string) {
  const round = Math.floor(index / names.length);
  return template(`${names[index % names.length]}${round > 0 ? round + 1 : ""}`);
}
