#!/usr/bin/env node
// Creates, resets or disables an operator account (the only way operators come to exist).
//
//   npm run admin:create -- <username> [--display-name 名字] [--role admin]   create; password from stdin
//     (role "operator" by default: orders, refunds, moderation; "admin" also edits the reference
//     data: schools, campuses, prices, delivery slots. `--reset --role admin` promotes one.)
//   npm run admin:create -- <username> --reset [--display-name 名字]  new password, enabled again
//   npm run admin:create -- <username> --disable                  disabled, sessions ended
//
// In the production image: `node scripts/admin-create.mjs <username> …` (plain node, no tsx: the
// database code comes from the server build, build.entry.module.operatorCli).
//
// The password is read from standard input, never from an argument (arguments end up in shell
// history and process lists): typed without echo on a terminal (twice), or the first line of a
// pipe: `echo 'pw' | npm run admin:create -- alice`. The database (DATABASE_URL) is migrated first.
import { parseArgs } from "node:util";
import { ensureBuild, serverEntry } from "./lib/ensure-build.mjs";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

const USAGE = `Usage: npm run admin:create -- <username> [--display-name NAME] [--role operator|admin] [--reset | --disable]
  The password is read from standard input (typed without echo, or piped: echo 'pw' | npm run admin:create -- alice).`;

class UsageError extends Error {}

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "display-name": { type: "string" },
        role: { type: "string" },
        reset: { type: "boolean", default: false },
        disable: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? "Missing <username>."
        : "Too many arguments (the password is never an argument: it is read from standard input).",
    );
  }
  if (values.reset && values.disable) throw new UsageError("--reset and --disable cannot be combined.");
  if (values.disable && values["display-name"] !== undefined) throw new UsageError("--display-name does not go with --disable.");
  if (values.disable && values.role !== undefined) throw new UsageError("--role does not go with --disable.");
  return {
    username: positionals[0],
    displayName: values["display-name"],
    role: values.role,
    mode: values.disable ? "disable" : values.reset ? "reset" : "create",
  };
}

/** Reads the whole of a piped stdin and keeps its first line. */
async function readPipedPassword() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/, 1)[0] ?? "";
}

/** Prompts on stderr and reads one line from the terminal without echoing it. */
function promptHidden(prompt) {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    let value = "";
    const finish = (error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new UsageError("Cancelled."));
        if (char === "\u007f" || char === "\b") value = [...value].slice(0, -1).join("");
        else if (char >= " ") value += char;
      }
    };
    stdin.on("data", onData);
  });
}

async function readPassword(cli) {
  if (!process.stdin.isTTY) return readPipedPassword();
  const first = await promptHidden("Password: ");
  cli.checkNewPassword(first);
  const second = await promptHidden("Repeat the password: ");
  if (first !== second) throw new cli.OperatorError("The two passwords differ.");
  return first;
}

let cli;

async function main(argv) {
  const options = parse(argv);
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  ensureBuild();
  cli = (await serverEntry()).operatorCli;
  // Read the password before touching the database, so a wrong one costs nothing.
  const password = options.mode === "disable" ? "" : await readPassword(cli);
  if (options.mode !== "disable") cli.checkNewPassword(password);
  if (options.role !== undefined) cli.checkRole(options.role);

  try {
    await cli.migrate();
    if (options.mode === "disable") {
      const operator = await cli.disableOperator(options.username);
      process.stdout.write(`Disabled operator ${operator.username} (id ${operator.id}); their sessions were ended.\n`);
    } else if (options.mode === "reset") {
      const operator = await cli.resetOperator({ username: options.username, password, displayName: options.displayName, role: options.role });
      process.stdout.write(
        `Reset the password of operator ${operator.username} (id ${operator.id}, ${operator.display_name}, role ${operator.role}); enabled; old sessions ended.\n`,
      );
    } else {
      const operator = await cli.createOperator({ username: options.username, password, displayName: options.displayName, role: options.role });
      process.stdout.write(`Created operator ${operator.username} (id ${operator.id}, ${operator.display_name}, role ${operator.role}).\n`);
    }
    process.stdout.write(`Database: ${cli.databaseLabel()}\n`);
  } finally {
    await cli.closeDb();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      process.exit(2);
    }
    if (cli && error instanceof cli.OperatorError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    // Never print the error object whole: nothing here holds the password, but stay terse.
    process.stderr.write(`admin:create failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
