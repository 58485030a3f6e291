import type { Kysely } from "kysely";

// The GPA rule a school counts by (app/lib/grades.ts GPA_FORMULAS), chosen by the operator in
// /admin/schools; existing schools keep the standard 4.0 table they were counted with.
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("schools")
    .addColumn("gpa_formula", "text", (col) => col.notNull().defaultTo("standard4"))
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("schools").dropColumn("gpa_formula").execute();
}
