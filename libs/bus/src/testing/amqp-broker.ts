import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import type { AmqpBus } from '../amqp-bus';

const run = promisify(execFile);

/** Deletes every queue and exchange the given buses declared; test teardown for a random prefix. */
export async function deleteAmqpTopology(url: string, buses: AmqpBus[]): Promise<void> {
  const queues = new Set(buses.flatMap((bus) => bus.declaredTopology().queues));
  const exchanges = new Set(buses.flatMap((bus) => bus.declaredTopology().exchanges));
  await deleteAmqpNames(url, { queues: [...queues], exchanges: [...exchanges] });
}

/** Deletes the named queues and exchanges (those that are not there are passed over); test teardown. */
export async function deleteAmqpNames(url: string, { queues, exchanges }: { queues: readonly string[]; exchanges: readonly string[] }): Promise<void> {
  const connection = await connect(url);
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    for (const queue of queues) await channel.deleteQueue(queue);
    for (const exchange of exchanges) await channel.deleteExchange(exchange);
  } finally {
    await connection.close();
  }
}

/**
 * Closes, from the broker's side, every connection whose client-provided name contains `fragment` (needs
 * `rabbitmqctl` on the machine running the broker). Returns how many were closed.
 */
export async function closeAmqpConnectionsNamed(fragment: string, reason = 'test'): Promise<number> {
  // The table formatter prints pids as close_connection expects them (the JSON one does not): `<pid>\t<properties>`.
  const { stdout } = await run('rabbitmqctl', ['-q', '--no-table-headers', 'list_connections', 'pid', 'client_properties']);
  const targets = stdout
    .split('\n')
    .filter((line) => /\{"connection_name","([^"]*)"\}/.exec(line)?.[1].includes(fragment))
    .map((line) => line.split('\t')[0]);
  for (const pid of targets) await run('rabbitmqctl', ['-q', 'close_connection', pid, reason]);
  return targets.length;
}
