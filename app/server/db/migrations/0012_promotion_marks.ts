import type { Kysely } from "kysely";

// Promotions once per person (docs/architecture.md "New user"; decision 014). A mark says
// that a person has had a promotion: 'new_user' (the new-user grant) or 'has_assisted' (they
// assisted someone). The person is named only by keyed hashes of their stable identities
// (HMAC-SHA256 of "student:<school>:<student id>" and of "openid:<openid>" under a server key),
// so a mark outlives the account: deleting an account and coming back never makes anyone new
// again. A hash names nobody without the server key; the privacy text on /about says these
// marks are kept.
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("promotion_marks")
    .addColumn("identity_hash", "text", (col) => col.notNull())
    .addColumn("mark", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("promotion_marks_pk", ["identity_hash", "mark"])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("promotion_marks").execute();
}
