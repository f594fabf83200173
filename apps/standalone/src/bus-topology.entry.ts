import { Topology } from '@pitwall/bus';
import { EXCHANGES, SERVICES } from '@pitwall/contracts';

/**
 * The queues and exchanges a stack declares on the broker under `prefix`, derived from the contracts. Bundled on
 * its own (dist/apps/standalone/bus-topology.entry.js) for tools/stack.cjs, which removes a run's topology.
 */
export function busTopology(prefix: string): { queues: string[]; exchanges: string[] } {
  const topology = new Topology(prefix);
  return {
    queues: [...Object.values(SERVICES).map((s) => topology.serviceQueue(s)), topology.deadLetterQueue()],
    exchanges: Object.values(EXCHANGES).map((x) => topology.exchange(x)),
  };
}
