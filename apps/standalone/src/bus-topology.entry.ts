import { Topology } from '@pitwall/bus';
import { DEFAULT_TIMING_PARTITIONS, EXCHANGES, SERVICES, SUBSCRIPTION_QUEUES, partitionService } from '@pitwall/contracts';

/**
 * The queues and exchanges a stack declares on the broker under `prefix`, derived from the contracts (with the
 * timing-service's `timingPartitions` partition queues). Bundled on its own (dist/apps/standalone/bus-topology.entry.js)
 * for tools/stack.cjs, which removes a run's topology.
 */
export function busTopology(prefix: string, timingPartitions = DEFAULT_TIMING_PARTITIONS): { queues: string[]; exchanges: string[] } {
  const topology = new Topology(prefix);
  const partitions = Array.from({ length: timingPartitions }, (_, i) => topology.serviceQueue(partitionService(SERVICES.timing, i)));
  return {
    queues: [...Object.values(SERVICES).map((s) => topology.serviceQueue(s)), ...partitions, ...Object.values(SUBSCRIPTION_QUEUES).map((q) => topology.queue(q)), topology.deadLetterQueue()],
    exchanges: Object.values(EXCHANGES).map((x) => topology.exchange(x)),
  };
}
