import type { Logger } from '@pitwall/service-kit';
import type { SimulationRepository, WokenJob } from '../data-access/simulation-repository';
import { JOB_ROUTING_PREFIX } from './request-simulations';

/** How long a woken job must stay unreceived, with the job queue found empty at every look, before its message is taken for lost. */
export const LOST_CONFIRM_MS = 2000;

/** The job queue as the broker counts it: its messages ready for delivery (not those a worker holds unacked). */
export interface JobQueue {
  queuedMessages(): Promise<number>;
}

/**
 * Finds the woken jobs whose message is lost, without waiting SIMULATION_JOB_REPUBLISH_MS: a woken job holds its
 * account's place until a worker takes its message, so a message lost from the queue (purged, dead-lettered, a broker's
 * loss) held that place for 10 minutes to an hour. A woken job's message has left the outbox, so it is either in the
 * job queue (ready, or delivered to a worker) or lost. A delivery records its arrival on the job before anything else
 * (`receive`), so a woken job that no delivery reached while the queue holds no message ready has none anywhere.
 *
 * Read in that order (the jobs first, the queue after), a message published after the read cannot hide one: the jobs
 * read had theirs published before. The one moment a message is in neither place, between its delivery and the
 * delivery's first statement, is covered by asking for the same jobs, with the same holds, to be found so at every
 * look for `confirmMs` (any look at a queue with a message ready starts the wait again). A copy is the same job: it
 * keeps the job's place, and a job runs in one worker at a time (a copy of a job running or ended is acked without
 * running), so a copy taken for lost wrongly costs a delivery, never a second run. Each instance copies one woken job
 * so at most once per wake (a copy lost again waits for SIMULATION_JOB_REPUBLISH_MS), so a queue that drops every
 * message (unbound, deleted) is not fed a copy at every wake.
 */
export class LostJobMessages {
  /** Jobs found unreceived with the queue empty, by id: the hold seen and since when. */
  private suspects = new Map<string, { wokenUntil: string; since: number }>();
  /** Jobs this instance took for lost, once per wake (`id@wokenAt`). */
  private presumed = new Set<string>();

  constructor(
    private readonly repository: Pick<SimulationRepository, 'unclaimedWoken'>,
    private readonly queue: JobQueue,
    private readonly logger: Logger,
    private readonly confirmMs = LOST_CONFIRM_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The woken jobs whose message is lost now (to be published again: `presumeLost`); none while a message is queued. */
  async find(): Promise<WokenJob[]> {
    const candidates = await this.repository.unclaimedWoken(JOB_ROUTING_PREFIX);
    const ids = new Set(candidates.map((job) => job.id));
    this.presumed = new Set([...this.presumed].filter((key) => ids.has(key.slice(0, key.indexOf('@')))));
    if (!candidates.length) return this.clear();
    let queued: number;
    try {
      queued = await this.queue.queuedMessages();
    } catch (err) {
      // Not counted (the broker away): nothing is taken for lost on a guess.
      this.logger.debug({ err }, 'the simulation job queue could not be counted; no message is taken for lost');
      return this.clear();
    }
    if (queued > 0) return this.clear();
    const at = this.now();
    const lost: WokenJob[] = [];
    const suspects = new Map<string, { wokenUntil: string; since: number }>();
    for (const job of candidates) {
      const key = `${job.id}@${job.wokenAt ?? ''}`;
      if (this.presumed.has(key)) continue;
      const seen = this.suspects.get(job.id);
      const since = seen?.wokenUntil === job.wokenUntil ? seen.since : at;
      if (at - since >= this.confirmMs) {
        lost.push(job);
        this.presumed.add(key);
      } else suspects.set(job.id, { wokenUntil: job.wokenUntil, since });
    }
    this.suspects = suspects;
    return lost;
  }

  private clear(): WokenJob[] {
    this.suspects.clear();
    return [];
  }
}
