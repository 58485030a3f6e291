// What `scripts/admin-create.mjs` needs from the server, reached through the server build
// (build.entry.module.operatorCli), so the command runs with plain `node` in the production image.
import { OperatorError, checkNewPassword, createOperator, disableOperator, resetOperator } from "../auth/operator.server";
import { config } from "../config.server";
import { closeDb, db } from "../db/db.server";
import { migrateToLatest } from "../db/migrate.server";

export const operatorCli = {
  OperatorError,
  checkNewPassword,
  createOperator,
  disableOperator,
  resetOperator,
  closeDb,
  databaseLabel: () => {
    const url = config().databaseUrl;
    return url.startsWith("file:") ? url : "postgres";
  },
  migrate: () => migrateToLatest(db()),
};
