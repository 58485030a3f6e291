// db/schema.ts is written by hand beside the migrations: Kysely trusts it and checks nothing at
// run time. Here a freshly migrated database (the test setup's, on each dialect) is read back
// through Kysely's introspection and compared with what schema.ts declares: the same tables,
// the same columns, and a column is nullable in the database exactly when its type admits null.
import fs from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db, dialect, type Dialect } from "./db.server";

type Declared = Map<string, Map<string, { nullable: boolean }>>;

/** The tables of `interface Database` and, for each, its columns and whether they admit null. */
function declaredSchema(): Declared {
  const file = new URL("./schema.ts", import.meta.url);
  const source = ts.createSourceFile("schema.ts", fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  // What a row reads: Generated<T> reads T; ColumnType<Select, Insert, Update> reads Select.
  const selectType = (type: ts.TypeNode): ts.TypeNode => {
    if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && ["Generated", "ColumnType"].includes(type.typeName.text) && type.typeArguments?.[0]) {
      return selectType(type.typeArguments[0]);
    }
    return type;
  };
  const admitsNull = (type: ts.TypeNode): boolean =>
    ts.isUnionTypeNode(type) ? type.types.some(admitsNull) : ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword;
  const declared: Declared = new Map();
  for (const member of interfaces.get("Database")!.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
    const table = interfaces.get(member.type.typeName.getText(source));
    if (!table) throw new Error(`schema.ts: ${member.name.getText(source)} names no interface`);
    const columns = new Map<string, { nullable: boolean }>();
    for (const column of table.members) {
      if (ts.isPropertySignature(column) && column.type) columns.set(column.name.getText(source), { nullable: admitsNull(selectType(column.type)) });
    }
    declared.set(member.name.getText(source), columns);
  }
  return declared;
}

/**
 * Tables outside schema.ts on purpose, each reached only by raw SQL or its own narrow type: the
 * migrator's own; SQLite's search (FTS5 tables, their shadow tables and the pair positions,
 * migration 0041); PostgreSQL's shared rate-limit counters (rate-limits.server.ts, 0014).
 */
const UNTYPED: Record<Dialect, RegExp> = {
  sqlite: /^(kysely_migration|kysely_migration_lock|(posts|comments)_(fts|bigrams)(_\w+)?|search_positions)$/,
  postgres: /^(kysely_migration|kysely_migration_lock|rate_limits)$/,
};

/** SQLite reports a primary key column as nullable unless it says NOT NULL; our keys never hold null. */
async function sqlitePrimaryKeys(table: string) {
  const rows = await sql<{ name: string }>`select name from pragma_table_info(${table}) where pk > 0`.execute(db());
  return new Set(rows.rows.map((row) => row.name));
}

async function migratedSchema() {
  const tables = (await db().introspection.getTables()).filter((table) => !table.isView && !UNTYPED[dialect()].test(table.name));
  const schema: Declared = new Map();
  for (const table of tables) {
    const keys = dialect() === "sqlite" ? await sqlitePrimaryKeys(table.name) : new Set<string>();
    schema.set(table.name, new Map(table.columns.map((column) => [column.name, { nullable: column.isNullable && !keys.has(column.name) }])));
  }
  return schema;
}

describe("db/schema.ts against a migrated database", () => {
  it("declares every table the migrations make, and no other", async () => {
    const declared = declaredSchema();
    const migrated = await migratedSchema();
    expect([...declared.keys()].sort()).toEqual([...migrated.keys()].sort());
  });

  it("declares each table's columns, with null where the column allows it", async () => {
    const declared = declaredSchema();
    const migrated = await migratedSchema();
    const differences: string[] = [];
    for (const [table, columns] of migrated) {
      const types = declared.get(table);
      if (!types) continue;
      for (const [name, column] of columns) {
        const type = types.get(name);
        if (!type) differences.push(`${table}.${name}: in the database, not in schema.ts`);
        else if (type.nullable !== column.nullable) differences.push(`${table}.${name}: ${column.nullable ? "nullable" : "NOT NULL"} in the database, ${type.nullable ? "| null" : "never null"} in schema.ts`);
      }
      for (const name of types.keys()) if (!columns.has(name)) differences.push(`${table}.${name}: in schema.ts, not in the database`);
    }
    expect(differences).toEqual([]);
  });
});
