import { ENTITY_COMMANDS, MAX_MATH_DECIMAL_PLACES, SERVICES, type CallerContext } from '@pitwall/contracts';
import type { Bus } from '@pitwall/bus';

/** An account's math channel as the datafile-service uses it (the entity-service's MathChannels). */
export interface MathDefinition {
  name: string;
  expression: string;
  unit: string;
  /** Hz; absent: the fastest input's rate. */
  rate?: number;
  /** Its values rounded to this many decimals for every reader (0 to MAX_MATH_DECIMAL_PLACES); absent: full precision. */
  decimalPlaces?: number;
}

interface EntityJson {
  Parameters?: Record<string, unknown>;
}

/** How long an account's definitions are used without an event saying they changed (a missed event heals in this time). */
export const MATH_DEFINITIONS_TTL_MS = 60_000;

/**
 * The math channels of each account, listed from the entity-service over the bus (`entity.list` of MathChannels, as
 * the caller: a caller who may read the dataset may read them) and kept per account until an `entity.MathChannel.*`
 * event drops them, or for at most MATH_DEFINITIONS_TTL_MS. A read that names only logged channels never asks.
 */
export class MathDefinitions {
  private readonly byAccount = new Map<string, { at: number; definitions: Promise<ReadonlyMap<string, MathDefinition>> }>();

  constructor(
    private readonly bus: Bus,
    private readonly now: () => number = Date.now,
    private readonly maxAccounts = 1_000,
  ) {}

  of(caller: CallerContext, requestId?: string): Promise<ReadonlyMap<string, MathDefinition>> {
    const hit = this.byAccount.get(caller.accountId);
    if (hit && this.now() - hit.at < MATH_DEFINITIONS_TTL_MS) return hit.definitions;
    const definitions = this.list(caller, requestId);
    const entry = { at: this.now(), definitions };
    this.byAccount.delete(caller.accountId);
    this.byAccount.set(caller.accountId, entry);
    // A failed list is not kept: the next read asks again.
    definitions.catch(() => {
      if (this.byAccount.get(caller.accountId) === entry) this.byAccount.delete(caller.accountId);
    });
    while (this.byAccount.size > this.maxAccounts) this.byAccount.delete(this.byAccount.keys().next().value as string);
    return definitions;
  }

  /** An account's definitions changed: the next read lists them again. */
  invalidate(accountId: string): void {
    this.byAccount.delete(accountId);
  }

  private async list(caller: CallerContext, requestId?: string): Promise<ReadonlyMap<string, MathDefinition>> {
    const message = { caller, type: 'MathChannels', parentIds: {}, include: ['Name', 'Expression', 'Unit', 'Rate', 'DecimalPlaces'] };
    const entities = await this.bus.request<EntityJson[]>(SERVICES.entity, ENTITY_COMMANDS.list, message, requestId ? { headers: { requestId } } : {});
    const out = new Map<string, MathDefinition>();
    for (const entity of entities) {
      const p = entity.Parameters ?? {};
      if (typeof p['Name'] !== 'string' || typeof p['Expression'] !== 'string') continue;
      const rate = typeof p['Rate'] === 'number' && p['Rate'] > 0 ? p['Rate'] : undefined;
      const places = p['DecimalPlaces'];
      // The entity-service refuses any other on write; one that is not (written before the rule) is full precision.
      const decimalPlaces = typeof places === 'number' && Number.isInteger(places) && places >= 0 && places <= MAX_MATH_DECIMAL_PLACES ? places : undefined;
      out.set(p['Name'], { name: p['Name'], expression: p['Expression'], unit: typeof p['Unit'] === 'string' ? p['Unit'] : '', ...(rate ? { rate } : {}), ...(decimalPlaces !== undefined ? { decimalPlaces } : {}) });
    }
    return out;
  }
}
