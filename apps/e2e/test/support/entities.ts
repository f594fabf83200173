import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ENTITY_TYPES, collectionNamesOf, pascal, requireEntityType, type EntityJson, type EntityTypeDef, type ParameterDef, type ParameterUpdate } from '@pitwall/contracts';
import { DistributedStack, type Member } from './distributed';

/** A raw HTTP answer: status, headers and parsed JSON body (tests look into arbitrary shapes). */
export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** Plain HTTP against the gateway as one member, for any registry type (the generated client names methods per type). */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly member: Member,
  ) {}

  headers(): Record<string, string> {
    return { ApiKey: this.member.apiKey, AccountId: this.member.accountId, 'Content-Type': 'application/json' };
  }

  async send(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: this.headers(), body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }

  /** GET with a JSON body (search): fetch cannot send one, node's http through supertest can. */
  async getWithBody(path: string, body: unknown): Promise<Answer> {
    const res = await request(this.baseUrl).get(path).set(this.headers()).send(body as object);
    return { status: res.status, headers: new Headers(res.headers as Record<string, string>), body: res.body };
  }

  get(plural: string, id: string, include?: string): Promise<Answer> {
    return this.send('GET', `/${plural}/${id}${include === undefined ? '' : `?parametersToInclude=${encodeURIComponent(include)}`}`);
  }

  list(plural: string, parentIds: Record<string, string> = {}, include?: string): Promise<Answer> {
    const q = new URLSearchParams(parentIds);
    if (include !== undefined) q.set('parametersToInclude', include);
    const qs = q.toString();
    return this.send('GET', `/${plural}${qs ? `?${qs}` : ''}`);
  }

  create(plural: string, parentIds: Record<string, string>, body: Record<string, unknown>): Promise<Answer> {
    const qs = new URLSearchParams(parentIds).toString();
    return this.send('POST', `/${plural}${qs ? `?${qs}` : ''}`, body);
  }

  update(plural: string, id: string, body: Record<string, unknown>): Promise<Answer> {
    return this.send('PUT', `/${plural}/${id}`, body);
  }

  delete(plural: string, id: string): Promise<Answer> {
    return this.send('DELETE', `/${plural}/${id}`);
  }
}

export const suffix = (): string => randomUUID().slice(0, 8);
export const updates = (params: Record<string, string | null>): ParameterUpdate[] => Object.entries(params).map(([Name, Value]) => ({ Name, Value }));

/** What a sample value reads back as, per parameter type. */
export interface Sample {
  raw: string;
  typed: unknown;
}

/** Sample values for the parameters whose meaning the generic rules cannot guess (they are validated as a whole). */
const PARAMETER_OVERRIDES: Record<string, (s: string) => Record<string, string>> = {
  // A math channel's Expression must parse (docs/math-channels.md); Rate is left unset (the samples read back as sent).
  MathChannels: (s) => ({ Name: `Math ${s}`, Expression: '"Ground Speed" / 3.6', Unit: 'm/s', Description: `Description ${s}` }),
  // A viewer layout's Layout must be the viewer's view with its version (docs/viewer.md).
  ViewerLayouts: (s) => ({ Name: `Layout ${s}`, Layout: 'v=1&ch=Ground%20Speed&panes=unit', Description: `Description ${s}` }),
  ParameterDefinitions: (s) => ({ Name: `Lap${s.replace(/[^a-z0-9]/gi, '')}Id`, EntityType: 'RunSheets', ParameterType: 'Reference', EnumValues: 'A,B', Unit: 'm', ReferencedEntityType: 'Laps' }),
};

export interface Built {
  type: EntityTypeDef;
  entity: EntityJson;
  /** The parent ids it was created under (query names). */
  parentIds: Record<string, string>;
  /** The raw values sent per parameter name, and what each reads back as. */
  samples: Record<string, Sample>;
}

/**
 * Builds an entity of any registry type with its whole parent chain: parents first, the car entered in the
 * event where the type requires it, and every built-in parameter given a value of its type (references point
 * to real entities of the referenced type, built the same way).
 */
export class EntityFactory {
  constructor(readonly api: Api) {}

  async build(plural: string, options: { parentIds?: Record<string, string>; parameters?: Record<string, string | null>; allParameters?: boolean } = {}): Promise<Built> {
    const type = requireEntityType(plural);
    const parentIds = options.parentIds ?? (await this.parentsFor(type));
    // A parameter definition is only valid as a whole, so it always gets its full sample.
    const samples = options.allParameters === false && !PARAMETER_OVERRIDES[type.plural] ? {} : await this.samplesFor(type, parentIds);
    const s = suffix();
    samples['Name'] ??= { raw: `${type.name} ${s}`, typed: `${type.name} ${s}` };
    const raw: Record<string, string | null> = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.raw]));
    Object.assign(raw, options.parameters ?? {});
    const res = await this.api.create(type.plural, parentIds, { ParameterUpdates: updates(raw) });
    if (res.status !== 201) throw new Error(`creating ${type.plural} under ${JSON.stringify(parentIds)} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return { type, entity: res.body as EntityJson, parentIds, samples };
  }

  /** Creates the parents of `type` and returns their ids under the type's query names. */
  async parentsFor(type: EntityTypeDef): Promise<Record<string, string>> {
    const ids: Record<string, string> = {};
    const eventIdOf: Record<string, string> = {};
    for (const parent of type.parents) {
      const built = await this.build(parent.type, { allParameters: false });
      ids[parent.key] = built.entity.Id;
      if (built.parentIds['eventId']) eventIdOf[parent.key] = built.parentIds['eventId'];
    }
    if (type.requiresEventCar) {
      const eventId = type.requiresEventCar === 'event' ? ids['eventId'] : eventIdOf['sessionId'];
      await this.enter(eventId as string, ids['carId'] as string);
    }
    return ids;
  }

  /** Enters a car in an event (an EventCar). */
  async enter(eventId: string, carId: string): Promise<EntityJson> {
    return (await this.build('EventCars', { parentIds: { eventId, carId }, allParameters: false })).entity;
  }

  async samplesFor(type: EntityTypeDef, parentIds: Record<string, string>): Promise<Record<string, Sample>> {
    const s = suffix();
    const override = PARAMETER_OVERRIDES[type.plural];
    if (override) return Object.fromEntries(Object.entries(override(s)).map(([k, v]) => [k, { raw: v, typed: v }]));
    const out: Record<string, Sample> = {};
    for (const p of type.parameters) out[p.name] = await this.sample(p, s, parentIds);
    return out;
  }

  /** A value of the parameter's type; a reference that names a parent (an event car's CarId) is that parent. */
  async sample(p: ParameterDef, s: string, parentIds: Record<string, string>): Promise<Sample> {
    switch (p.type) {
      case 'Text':
        return { raw: `${p.name} ${s}`, typed: `${p.name} ${s}` };
      case 'Double':
        return { raw: '12.5', typed: 12.5 };
      case 'Integer':
        return { raw: '42', typed: 42 };
      case 'Boolean':
        return { raw: 'TRUE', typed: true };
      case 'DateTime':
        return { raw: '2026-04-10T14:03:07.25+02:00', typed: '2026-04-10T12:03:07.250Z' };
      case 'Enum': {
        const v = p.enumValues?.[p.enumValues.length - 1] as string;
        return { raw: v.toLowerCase(), typed: v };
      }
      case 'Reference': {
        const parent = Object.entries(parentIds).find(([key]) => pascal(key) === p.name);
        const id = parent ? parent[1] : (await this.build(p.references as string, { allParameters: false })).entity.Id;
        return { raw: id.toUpperCase(), typed: id };
      }
    }
  }
}

/**
 * A read of every parameter (wire.md §4): each built-in parameter of the type, null when unset, then `parameters`
 * (custom parameters defined for the type are named in `parameters` too).
 */
export function withNulls(plural: string, parameters: Record<string, unknown> = {}): Record<string, unknown> {
  // An unset reference is null twice: its id (`SetupId`) and the referenced entity beside it (`Setup`).
  const nulls = requireEntityType(plural).parameters.flatMap((p) => (p.type === 'Reference' ? [[p.name, null], [p.name.slice(0, -2), null]] : [[p.name, null]]));
  return { ...Object.fromEntries(nulls), ...parameters };
}

/** The wire shape wire.md §2 promises for a freshly created entity with `samples` set and nothing projected. */
export function expectedEntity(type: EntityTypeDef, id: string, samples: Record<string, Sample>): EntityJson {
  const Parameters: Record<string, unknown> = withNulls(type.plural);
  for (const [name, { typed }] of Object.entries(samples)) {
    Parameters[name] = typed;
    const def = type.parameters.find((p) => p.name === name);
    if (def?.type === 'Reference') Parameters[name.slice(0, -2)] = { Id: typed, Parameters: {} };
  }
  const out: EntityJson = { Id: id, Parameters };
  for (const name of collectionNamesOf(type)) out[name] = [];
  return out;
}

export const TYPES_WITH_PARENTS = ENTITY_TYPES.filter((t) => t.parents.length > 0);
export const TOP_LEVEL_TYPES = ENTITY_TYPES.filter((t) => t.parents.length === 0);
export const TYPES_WITH_REFERENCES = ENTITY_TYPES.filter((t) => t.parameters.some((p) => p.type === 'Reference'));

export interface EntityStack {
  stack: DistributedStack;
  admin: Member;
  api: Api;
  factory: EntityFactory;
}

/** The suite's shared five-process stack, an admin of a fresh account, and an Api and factory acting as it. */
export function withEntityStack(use: (fixture: EntityStack) => void): void {
  let stack: DistributedStack | undefined;
  beforeAll(async () => {
    stack = await DistributedStack.shared();
    const admin = await stack.member('admin');
    const api = new Api(stack.baseUrl, admin);
    use({ stack, admin, api, factory: new EntityFactory(api) });
  });
  afterAll(async () => {
    await stack?.stop();
  });
}
