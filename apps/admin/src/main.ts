import { runAdmin } from './cli';

// Composition root of the admin CLI: the command logic lives in cli.ts and commands.ts.
void runAdmin(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
