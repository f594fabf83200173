import type { Stack } from './distributed';

/**
 * The processes of a stack that ended on their own: an exit code other than 0 (a crash, an uncaught exception, a
 * failed start), now or before a supervised restart. A kill by the test is a signal, and a stop it asked for exits 0.
 */
export function crashedProcesses(stack: Pick<Stack, 'procs' | 'supervision'>): string[] {
  const now = stack.procs.filter((p) => p.child.exitCode !== null && p.child.exitCode !== 0).map((p) => `${p.name} exited with code ${p.child.exitCode}: ${p.output.slice(-1000)}`);
  const before = stack.supervision.filter((line) => /exited \(code [1-9]/.test(line));
  return [...before, ...now];
}
