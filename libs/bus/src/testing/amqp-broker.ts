import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import type { AmqpBus } from '../amqp-bus';

const run = promisify(execFile);

/** Deletes every queue and exchange the given buses declared; test teardown for a random prefix. */
export async function deleteAmqpTopology(url: string, buses: AmqpBus[]): Promise<void> {
  const queues = new Set(buses.flatMap((bus) => bus.declaredTopology().queues));
  const exchanges = new Set(buses.flatMap((bus) => bus.declaredTopology().exchanges));
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
  const { stdout } = await run('rabbitmqctl', ['-q', '--formatter', 'json', 'list_connections', 'name', 'client_properties']);
  const connections = JSON.parse(stdout) as { name: string; client_properties: [string, string, unknown][] }[];
  const targets = connections.filter((c) => c.client_properties.some(([key, , value]) => key === 'connection_name' && String(value).includes(fragment)));
  for (const { name } of targets) await run('rabbitmqctl', ['-q', 'close_connection', name, reason]);
  return targets.length;
}
