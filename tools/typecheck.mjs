// Type-checks the whole repository in as few TypeScript programs as its projects' settings allow.
// Every project's own tsconfig.json (apps/*, libs/*, tools/*; a tool needs no project.json) is read; projects whose compiler options are the same
// (all but the viewer, which adds the DOM, and the e2e suite, which allows JS) share one program, so a library
// imported by ten projects is checked once instead of ten times, as `nx run-many -t typecheck` would. A file in two
// programs has its errors reported once. `node tools/typecheck.mjs` exits 1 on any error.
import { readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };

/** Every project's tsconfig.json, as the workspace lays them out. */
export function projectConfigs() {
  const configs = [];
  for (const group of ['apps', 'libs', 'tools']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const config = join(root, group, name, 'tsconfig.json');
      // A tool without project.json (the benches, tools/gen-ld, tools/timing-replay) is no Nx project, so nothing
      // lints or builds it, but its tsconfig.json has it type-checked here all the same.
      if (existsSync(config) && (group === 'tools' || existsSync(join(root, group, name, 'project.json')))) configs.push(config);
    }
  }
  return configs;
}

/** The programs to check: projects grouped by their compiler options, each group's files together. */
export function programs(configs = projectConfigs()) {
  const groups = new Map();
  for (const config of configs) {
    const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
    if (parsed.errors.length) throw new Error(ts.formatDiagnostics(parsed.errors, host));
    const { configFilePath: _, ...options } = parsed.options;
    // Keys in one order, nested values (paths, lib, types) whole.
    const key = JSON.stringify(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));
    const group = groups.get(key) ?? { options, files: new Set() };
    for (const file of parsed.fileNames) group.files.add(file);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => ({ options: g.options, files: [...g.files] }));
}

/** Checks every program; prints each error once and returns how many there are. */
export function typecheck() {
  const seen = new Set();
  let errors = 0;
  for (const { options, files } of programs()) {
    const program = ts.createProgram(files, { ...options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => {
      const key = `${d.file?.fileName}:${d.start}:${d.code}:${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      return !seen.has(key) && seen.add(key);
    });
    if (diagnostics.length) process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
    errors += diagnostics.length;
  }
  return errors;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const errors = typecheck();
  if (errors) {
    process.stderr.write(`\ntypecheck: ${errors} error(s)\n`);
    process.exit(1);
  }
}
