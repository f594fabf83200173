import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { Logger } from '@pitwall/service-kit';
import { SEALED_COLUMNS, type SealedReplacement, type SealedTable, type SealedValueRepository } from '../data-access/sealed-value-repository';
import { recordedRegistrationSecret } from './callbacks';
import { PeriodicPass } from './coalesced-pass';
import type { SecretBox } from './secret-box';

/** Stored values one statement reads (and so re-seals) at most, each statement its own transaction. */
export const RESEAL_BATCH_ROWS = 200;
/** How often each instance looks again while SIMULATION_SECRET_KEY_PREVIOUS is set (instances still sealing under the old key during a roll-out). */
export const RESEAL_INTERVAL_MS = 10 * 60 * 1000;
/** The line that says the old keys may go. */
export const ROTATION_DONE = 'no value is sealed under SIMULATION_SECRET_KEY_PREVIOUS any more: it can be removed';

/** The sealed value inside a stored one, and the stored one around another sealed value: the same bytes, but for the recorded registrations. */
const SEALED_IN: Record<SealedTable, { sealedIn(stored: Buffer): Buffer | null; withSealed(stored: Buffer, sealed: Buffer): Buffer }> = {
  connections: { sealedIn: (stored) => stored, withSealed: (_, sealed) => sealed },
  jobs: { sealedIn: (stored) => stored, withSealed: (_, sealed) => sealed },
  callbacks: { sealedIn: (stored) => stored, withSealed: (_, sealed) => sealed },
  pending: { sealedIn: (stored) => stored, withSealed: (_, sealed) => sealed },
  registrations: recordedRegistrationSecret,
};

/** Per table: values found under a previous key, re-sealed by this pass, and opened by no configured key. */
export type ResealCounts = Record<SealedTable, { previous: number; resealed: number; unopenable: number }>;

export interface RotationSettings {
  batchRows?: number;
  intervalMs?: number;
}

/**
 * The key rotation's sweep: while SIMULATION_SECRET_KEY_PREVIOUS is set, every instance, at its start and every
 * RESEAL_INTERVAL_MS, re-seals under SIMULATION_SECRET_KEY every stored value that opens only under a previous key, a
 * bounded page a statement, beside the service's work (never in a request or a job). Each value is replaced only if it
 * still holds the bytes read, so instances sweeping at once re-seal each value once, and a value set again meanwhile
 * is kept. A pass that found some runs once more, to see that none is left; then ROTATION_DONE is logged. A value that
 * no configured key opens is left as it is and counted in a warning (a connection an admin must set again).
 */
export class SecretRotation {
  /** ROTATION_DONE was logged, and no pass found a value under a previous key since. */
  private doneLogged = false;
  /** The pass running is the one run at once after a pass that found values under a previous key. */
  private confirming = false;
  private readonly sweeping: PeriodicPass;

  constructor(
    private readonly repository: SealedValueRepository,
    private readonly secrets: SecretBox,
    private readonly settings: RotationSettings,
    private readonly logger: Logger,
  ) {
    this.sweeping = new PeriodicPass(
      async () => {
        const counts = await this.pass();
        // Once more at once to see that none is left, but once only: instances rolled out with the keys swapped (one
        // still sealing under the other's previous key) re-seal each other's values at every pass, and would loop.
        const again = !this.confirming && Object.values(counts).some((c) => c.previous > 0);
        this.confirming = again;
        if (again) this.sweeping.wake();
      },
      (err: unknown) => this.logger.warn({ err }, 'values sealed under SIMULATION_SECRET_KEY_PREVIOUS could not be re-sealed; retried at the next pass'),
      settings.intervalMs ?? RESEAL_INTERVAL_MS,
    );
  }

  start(): void {
    if (this.secrets.rotating) this.sweeping.start(); // no previous key: nothing can be under one
  }

  async stop(): Promise<void> {
    await this.sweeping.stop();
  }

  /** One pass over every table, page by page (a stop ends it between two pages); logs what it re-sealed and what it could not open. */
  async pass(): Promise<ResealCounts> {
    const counts = {} as ResealCounts;
    for (const table of Object.keys(SEALED_COLUMNS) as SealedTable[]) counts[table] = await this.passOver(table);
    const entries = Object.entries(counts);
    const resealed = Object.fromEntries(entries.filter(([, c]) => c.resealed > 0).map(([table, c]) => [table, c.resealed]));
    const unopenable = Object.fromEntries(entries.filter(([, c]) => c.unopenable > 0).map(([table, c]) => [table, c.unopenable]));
    if (Object.keys(resealed).length) this.logger.info({ resealed }, 'values sealed under SIMULATION_SECRET_KEY_PREVIOUS re-sealed under SIMULATION_SECRET_KEY');
    if (Object.keys(unopenable).length) {
      this.logger.warn({ unopenable }, 'values sealed under no configured key (neither SIMULATION_SECRET_KEY nor SIMULATION_SECRET_KEY_PREVIOUS) left as they are: an admin must set such a connection again');
    }
    const left = entries.some(([, c]) => c.previous > 0);
    if (!left && !this.sweeping.halted && !this.doneLogged) this.logger.info(ROTATION_DONE);
    this.doneLogged = !left && !this.sweeping.halted;
    return counts;
  }

  private async passOver(table: SealedTable): Promise<ResealCounts[SealedTable]> {
    const count = { previous: 0, resealed: 0, unopenable: 0 };
    const batchRows = this.settings.batchRows ?? RESEAL_BATCH_ROWS;
    const { sealedIn, withSealed } = SEALED_IN[table];
    let after: string[] | null = null;
    for (;;) {
      const page = await this.repository.page(table, after, batchRows);
      const replacements: SealedReplacement[] = [];
      for (const value of page) {
        const sealed = sealedIn(value.stored);
        if (!sealed) continue;
        const { under, resealed } = this.secrets.resealFromPrevious(sealed);
        if (under === 'none') count.unopenable++;
        if (resealed) replacements.push({ ...value, replacement: withSealed(value.stored, resealed) });
      }
      count.previous += replacements.length;
      count.resealed += await this.repository.replace(table, replacements);
      after = page.at(-1)?.key ?? null;
      await yieldToOthers();
      if (page.length < batchRows || this.sweeping.halted) return count;
    }
  }
}
