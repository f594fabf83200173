import { runAdmin } from './cli';

// Composition root of the admin CLI: the command logic lives in cli.ts and commands.ts.
void runAdmin(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // runAdmin answers every failure it knows with a code; anything else is one line, never an unhandled rejection.
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
