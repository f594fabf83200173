import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Closes, from the broker's side, every RabbitMQ connection of one process of a stack (its bus names its connection
 * `pitwall <BUS_PREFIX> pid <process id>`); returns how many it closed. `rabbitmqctl close_connection` needs the
 * connection's pid as this RabbitMQ prints it in its tab-separated listing (`<rabbit@host.N.M.K>`; the JSON
 * formatter's `#PID<…>` is not accepted back).
 */
export async function closeBrokerConnections(processId: number, busPrefix: string): Promise<number> {
  const { stdout } = await run('rabbitmqctl', ['list_connections', 'pid', 'client_properties', '-q', '--no-table-headers']);
  const pids = stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([pid, properties]) => pid?.startsWith('<') && properties?.includes(busPrefix) && properties.includes(` pid ${processId}"`))
    .map(([pid]) => pid as string);
  for (const pid of pids) await run('rabbitmqctl', ['close_connection', pid, 'closed by a fault test']);
  return pids.length;
}

/** Resolves once `check` is true (polled); fails after `limitMs` with `what` (a bound on a hang, not a timing assertion). */
export async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 60_000): Promise<void> {
  const stop = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > stop) throw new Error(`still not true after ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
