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

/**
 * Resolves once `check` is true (polled); fails after `limitMs` with `what` (a bound on a hang, not a timing
 * assertion). A function `what` is called at the failure, so its message says what was last seen.
 */
export async function until(what: string | (() => string), check: () => boolean | Promise<boolean>, limitMs = 60_000): Promise<void> {
  const stop = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > stop) throw new Error(`still not true after ${limitMs} ms: ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The process ids (from the connection names `pitwall <BUS_PREFIX> pid <process id>`) holding the active consumer of
 * each queue whose name starts with `queuePrefix` (single-active-consumer queues have one active consumer each).
 */
export async function activeConsumerProcesses(queuePrefix: string): Promise<Map<string, number>> {
  const list = async (what: string, columns: string[]) =>
    (await run('rabbitmqctl', [what, ...columns, '-q', '--no-table-headers'])).stdout
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => line.split('\t'));
  const consumers = (await list('list_consumers', ['queue_name', 'channel_pid', 'active'])).filter(([queue, , active]) => queue?.startsWith(queuePrefix) && active === 'true');
  const channelConnection = new Map((await list('list_channels', ['pid', 'connection'])).map(([channel, connection]) => [channel, connection]));
  const connectionProcess = new Map<string, number>();
  for (const [pid, properties] of await list('list_connections', ['pid', 'client_properties'])) {
    const match = / pid (\d+)"/.exec(properties ?? '');
    if (pid && match) connectionProcess.set(pid, Number(match[1]));
  }
  const out = new Map<string, number>();
  for (const [queue, channel] of consumers) {
    const processId = connectionProcess.get(channelConnection.get(channel as string) ?? '');
    if (queue && processId !== undefined) out.set(queue, processId);
  }
  return out;
}
