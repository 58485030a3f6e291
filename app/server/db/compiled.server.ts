import { createQueryId, type Compilable, type CompiledQuery } from "kysely";
import { db, type DB } from "./db.server";

// Kysely builds a query as a tree of nodes and compiles it to SQL on every call: for the queries
// every page runs (the session, the circle's feed) that is a tenth of the page's server CPU. A
// query whose shape is fixed is compiled once per database and shape, and each call binds its own
// values to the compiled statement's parameters.
//
// The builder is called with stand-ins for the values. A stand-in may only be bound (compared in a
// where, a limit): the builder may test a value's truthiness to choose the shape (`if (before)`),
// and the shape key records that, but it must not compute with it, compare it with ===, or turn it
// into text (that throws). `compiledOnce(...).compile(args)` equals the builder's own compile() for
// the same arguments; the tests of each compiled query check that.

type Scalar = string | number | bigint | boolean | null | undefined;
type Argument = Scalar | readonly Scalar[] | { readonly [key: string]: Scalar | readonly Scalar[] };

/** Where a call's value goes: the argument's position, then its key or index. */
class StandIn {
  constructor(readonly path: readonly (string | number)[]) {}
  [Symbol.toPrimitive](): never {
    throw new TypeError(`compiledOnce: the builder used the value at ${this.path.join(".")} as data; only bind it`);
  }
}

function isFalsy(value: unknown) {
  return !value;
}

/** The part of an argument that decides the query's shape: which values are missing, how long each list is. */
function shapeOf(value: Argument): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${key}:${shapeOf((value as Record<string, Argument>)[key]!)}`)
      .join(",")}}`;
  }
  return isFalsy(value) ? JSON.stringify(value ?? null) + typeof value : "v";
}

function standInFor(value: Argument, path: (string | number)[]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => (isFalsy(item) ? item : new StandIn([...path, index])));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, standInFor(item as Argument, [...path, key])]));
  }
  return isFalsy(value) ? value : new StandIn(path);
}

function valueAt(args: readonly Argument[], path: readonly (string | number)[]): unknown {
  let value: unknown = args;
  for (const step of path) value = (value as Record<string | number, unknown>)[step];
  return value;
}

export type CompiledOnce<Args extends Argument[], Row> = {
  /** The compiled statement with this call's values: what `build(...args).compile()` gives. */
  compile(...args: Args): CompiledQuery<Row>;
  execute(...args: Args): Promise<Row[]>;
  executeTakeFirst(...args: Args): Promise<Row | undefined>;
};

/**
 * `build` compiled once per database and shape. `build` must read the process's `db()` (as the
 * query builders of app/server do); arguments are scalars, lists of scalars (an `in` list: one
 * shape per length) or flat objects of those.
 */
export function compiledOnce<Args extends Argument[], Row>(build: (...args: Args) => Compilable<Row>): CompiledOnce<Args, Row> {
  const byDatabase = new WeakMap<DB, Map<string, CompiledQuery<Row>>>();
  function compile(...args: Args): CompiledQuery<Row> {
    const database = db();
    let shapes = byDatabase.get(database);
    if (!shapes) byDatabase.set(database, (shapes = new Map()));
    const shape = args.map(shapeOf).join("|");
    let template = shapes.get(shape);
    if (!template) {
      template = build(...(args.map((arg, index) => standInFor(arg, [index])) as Args)).compile();
      shapes.set(shape, template);
    }
    return {
      query: template.query,
      queryId: createQueryId(),
      sql: template.sql,
      parameters: template.parameters.map((parameter) => (parameter instanceof StandIn ? valueAt(args, parameter.path) : parameter)),
    };
  }
  return {
    compile,
    async execute(...args) {
      return (await db().executeQuery(compile(...args))).rows;
    },
    async executeTakeFirst(...args) {
      return (await db().executeQuery(compile(...args))).rows[0];
    },
  };
}
