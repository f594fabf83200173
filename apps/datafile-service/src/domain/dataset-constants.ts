import { ATTACHMENT_COMMANDS, SERVICES, type DatasetConstantsJson } from '@pitwall/contracts';
import type { ParameterUse } from '@pitwall/channels';
import type { Bus } from '@pitwall/bus';
import { FieldRefusals, shortened } from '@pitwall/service-kit';
import type { DatasetRef } from './datasets';

/**
 * The entities a dataset's `param("Name")` is looked up on, in order, each with the parameters it holds as a number,
 * and what its entity names that was not found (a Setup its SetupId names).
 */
export type ConstantsChain = DatasetConstantsJson;

/** The value a read takes for a parameter, and the entity it was taken from (`Cars <id>`): what its answers say it used. */
export interface ParamValue {
  value: number;
  from: string;
}

/** A read's param values by the name each definition writes: what its evaluation folds and its answer's key holds. */
export type Constants = ReadonlyMap<string, ParamValue>;

export type { ParameterUse };

export const NO_CONSTANTS: Constants = new Map();

/**
 * The owner chain of a dataset (its entity, the Setup its SetupId names, its Car: docs/math-channels.md), asked of the
 * entity-service over the bus as the caller, like the dataset's files and its track's sectors: only by a read whose
 * math channels read `param`, once per read, with the names they read (each once, whatever its case), so that only
 * those come back however many parameters the entities hold. Never kept: a changed parameter is what the next read
 * finds, and every answer it shapes is keyed by the values found (ReadResultCache.keyOf, the gateway's held answers
 * by that key's tag).
 */
export class DatasetConstants {
  constructor(private readonly bus: Bus) {}

  chainOf(ref: DatasetRef, names: Iterable<string>, requestId?: string): Promise<ConstantsChain> {
    const message = { caller: ref.caller, type: ref.type, id: ref.id, names: [...new Set(Array.from(names, (name) => name.toLowerCase()))] };
    return this.bus.request<DatasetConstantsJson>(SERVICES.entity, ATTACHMENT_COMMANDS.datasetConstants, message, requestId ? { headers: { requestId } } : {});
  }
}

/** The numbers a chain holds, by parameter name lower-cased, each with the entity holding it. */
export type HeldValues = ReadonlyMap<string, ParamValue>;

/**
 * The value of each parameter the chain holds, by its name lower-cased (looked up whatever the case a definition
 * writes it in, as the entity-service matches parameter names), and where it is held: the first entity holding it as a
 * number wins. One map per chain, made once: a lookup is then one get, whatever the number of parameters held.
 */
export function heldValues(chain: ConstantsChain): HeldValues {
  const held = new Map<string, ParamValue>();
  for (const entity of chain.entities) {
    const from = `${entity.type} ${entity.id}`;
    for (const [name, value] of Object.entries(entity.parameters)) {
      const lower = name.toLowerCase();
      if (Number.isFinite(value) && !held.has(lower)) held.set(lower, { value, from });
    }
  }
  return held;
}

/** The value of parameter `name` among those a chain holds (heldValues), with its entity; undefined when none holds it. */
export function valueOf(held: HeldValues, name: string): ParamValue | undefined {
  return held.get(name.toLowerCase());
}

/**
 * What a read's answers say of each of `names` a math channel read (docs/math-channels.md "Which values a read used"):
 * its value and entity as `values` gives them; a name it lacks is left out (a read refuses it before answering).
 */
export function parameterUses(names: Iterable<string>, values: (name: string) => ParamValue | undefined): ParameterUse[] {
  const out: ParameterUse[] = [];
  for (const name of names) {
    const found = values(name);
    if (found) out.push({ name, value: found.value, from: found.from });
  }
  return out;
}

/** Names a refusal lists at most, of the parameters a channel lacks: the rest are counted (`and 3 more`). */
export const MAX_NAMES_LISTED = 8;
/** Characters of an entity's Name a refusal quotes at most (a longer one is cut with `…`). */
const MAX_NAME_QUOTED = 60;

/** An entity as a refusal names it: `RunSheets <id> ("Run 88-1")`, its Name when it has one (cut when long). */
function named(entity: { type: string; id: string; name?: string }): string {
  return `${entity.type} ${idAndName(entity)}`;
}

function idAndName(entity: { id: string; name?: string }): string {
  if (entity.name === undefined) return entity.id;
  return `${entity.id} (${JSON.stringify(shortened(entity.name, MAX_NAME_QUOTED))})`;
}

/** `param("A"), param("B") and param("C")`: at most MAX_NAMES_LISTED, then `and N more`. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES_LISTED).map((name) => `param(${JSON.stringify(name)})`);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
}

/**
 * Why no entity of the chain gives a parameter, as a refusal says it: the entities looked at, and what the dataset's
 * entity names that was not used: a Setup not found (one of another account is not found alike: nothing of it is said
 * but its id, which the caller's own entity holds), or one of another car than the entity's.
 */
function notHeldBy(chain: ConstantsChain): string {
  const looked = chain.entities.length ? `none of ${chain.entities.map(named).join(', ')} holds` : 'no entity holds';
  const owner = chain.entities[0];
  const namer = owner ? named(owner) : "the dataset's entity";
  const kind = (type: string) => (type === 'Setups' ? 'Setup' : type);
  const missing = (chain.missing ?? []).map((m) => `the ${kind(m.type)} ${m.id} that ${namer} names as its ${m.namedBy} was not found`);
  const elsewhere = (chain.ofAnotherCar ?? []).map((m) => `the ${kind(m.type)} ${idAndName(m)} that ${namer} names as its ${m.namedBy} is of another car${m.carId ? ` (Cars ${m.carId})` : ''}, so its values are not used`);
  const notes = [...missing, ...elsewhere];
  return `${looked} as a number (a Double, Integer or Boolean parameter)${notes.length ? `; ${notes.join('; ')}` : ''}`;
}

/** A math channel of a read and the parameters it reads (through the definitions it reads). */
export interface ReadsParams {
  name: string;
  params: ReadonlySet<string>;
}

/**
 * The distinct parameters `channels` read together (each once), or, when they are more than `max` (MAX_MATH_PARAMS),
 * a 422 naming the variable on the field (`fieldOf(i)`) of the channel that brings them past it. Each channel's own
 * are at most `max` (resolveMathChannels refuses more), and a set shared by several channels is counted once, so this
 * looks at no more than `max` names a channel.
 */
export function paramsNeeded(channels: readonly (ReadsParams | undefined)[], max: number, fieldOf: (i: number) => string, lead: string): string[] {
  const names = new Set<string>();
  const seen = new Set<ReadonlySet<string>>();
  channels.forEach((channel, i) => {
    if (!channel || seen.has(channel.params)) return;
    seen.add(channel.params);
    for (const name of channel.params) {
      names.add(name);
      if (names.size <= max) continue;
      const reason = `the math channels of this read need more than ${max} distinct parameters with param() together (MAX_MATH_PARAMS is ${max}): read ${channel.name} in a read of its own or with fewer channels`;
      const refusals = new FieldRefusals();
      // A batch's refusal is of the read as a whole (on `channels`, not `channels[i]`): that channel reads well alone,
      // so a client that reads again without the channels[i] it was refused (the viewer) does not drop it.
      const field = /^channels\[\d+\]$/.test(fieldOf(i)) ? 'channels' : fieldOf(i);
      refusals.refuse(field, reason);
      refusals.throwIfAny(422, lead);
    }
  });
  return [...names];
}

/**
 * How a read resolves the parameters its math channels read (`channels[i]` named on the field `fieldOf(i)`, undefined
 * where the read names a logged channel): resolveConstants over its dataset's owner chain, asked only when one reads some.
 */
export type ConstantsOf = (channels: readonly (ReadsParams | undefined)[], fieldOf: (i: number) => string, lead: string) => Promise<Constants>;

/** How a read of one dataset treats param(): its bound and how it finds the values (DataFileReads.paramsOf). */
export interface DatasetParams {
  /** MAX_MATH_PARAMS: the most distinct parameters a math channel may read, and a read need. */
  max: number;
  valuesOf: ConstantsOf;
  /**
   * Those of `entries` (catalogue entries) whose parameters the dataset's owner chain holds each, as the metadata lists
   * them: the chain asked for only when one of them reads some.
   */
  held<T extends { params?: ReadonlySet<string> }>(entries: T[]): Promise<T[]>;
}

/**
 * The values of the parameters `channels` read, looked up on `chain`, each with the entity it was taken from, or a 422
 * naming, for each channel (on the field `fieldOf(i)` names it by) that reads some no entity of the chain holds as a
 * number, every such parameter (MAX_NAMES_LISTED of them, then how many more) and the entities looked at, after `lead`,
 * like a channel the file lacks.
 */
export function resolveConstants(channels: readonly (ReadsParams | undefined)[], chain: ConstantsChain, fieldOf: (i: number) => string, lead: string): Constants {
  const values = new Map<string, ParamValue>();
  const held = heldValues(chain);
  const refusals = new FieldRefusals();
  const refused = new Set<string>();
  channels.forEach((channel, i) => {
    if (!channel || refused.has(channel.name)) return;
    const lacking: string[] = [];
    for (const name of channel.params) {
      const found = values.get(name) ?? valueOf(held, name);
      if (found !== undefined) values.set(name, found);
      else lacking.push(name);
    }
    if (!lacking.length) return;
    refused.add(channel.name);
    refusals.refuse(fieldOf(i), `math channel ${channel.name} reads ${listed(lacking)}, which ${notHeldBy(chain)}`);
  });
  refusals.throwIfAny(422, lead);
  return values;
}
