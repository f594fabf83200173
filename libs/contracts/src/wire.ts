import { z } from 'zod';
import { parseWireDateTime, wireDateTimeRefusal } from './date-time';
import { EVERY_REFUSAL_AT_ONCE, safeParseReporting } from './field-errors';
import { atMostItems, REQUEST_LIMITS } from './request-limits';

/**
 * HTTP body schemas of wire.md. Property names are the canonical spelling; requests are bound
 * case-insensitively onto them (see binding.ts) and unknown properties are rejected.
 */

export const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Whether PostgreSQL can store a text: neither its text nor its jsonb holds NUL, and an unpaired surrogate is no UTF-8. */
export function isStorableText(text: string): boolean {
  return !text.includes('\0') && !UNPAIRED_SURROGATE.test(text);
}
export const UNSTORABLE_TEXT = 'may not contain NUL characters or unpaired surrogates';
/** A name the service stores or looks up (a file name, a group name): refused with a 400 when it could not be stored. */
export const StoredName = (maxLength: number) => z.string().min(1, 'is required').max(maxLength, `is longer than ${maxLength} characters`).refine(isStorableText, UNSTORABLE_TEXT);

/** GUIDs compare case-insensitively: a body's GUID travels lower-cased, so one id in two spellings is one request. */
export const guidSchema = (params?: Parameters<typeof z.string>[0]) => z.string(params).regex(GUID_PATTERN, 'is not a GUID').overwrite((v) => v.toLowerCase());
export const Guid = guidSchema().meta({ id: 'Guid', format: 'uuid' });
/**
 * An optional id a wrapper leaves unset: absent, null, empty, or the nil GUID (a .NET model's unset `Guid`). Such a
 * value names nothing, so it is neither checked against another id nor used.
 */
export const isUnsetId = (value: unknown): boolean => value === undefined || value === null || value === '' || value === '00000000-0000-0000-0000-000000000000';

export const ParameterUpdate = z
  .strictObject({
    Name: z.string().min(1, 'is required'),
    Value: z.string().nullable(),
  })
  .meta({ id: 'ParameterUpdate', description: 'Sets a named parameter; values always travel as strings and are converted to the parameter type.' });
export type ParameterUpdate = z.infer<typeof ParameterUpdate>;

/** `<X>AssociationsToAdd` / `<X>AssociationsToRemove` (wire.md §3): extra top-level keys of create and update bodies. */
const ASSOCIATION_KEY = /^([A-Z][A-Za-z]*)Associations(ToAdd|ToRemove)$/i;
/**
 * A parameter of an association (wire.md §3): stored as it is given, with no parameter definition to convert it, so
 * what PostgreSQL's jsonb cannot hold (NUL, an unpaired surrogate) is refused here rather than as a 500 there.
 */
const AssociationParameterUpdate = z.strictObject({
  Name: z.string().min(1, 'is required').refine(isStorableText, UNSTORABLE_TEXT),
  Value: z.string().refine(isStorableText, UNSTORABLE_TEXT).nullable(),
});
const AssociationItem = z.looseObject({ ParameterUpdates: z.array(AssociationParameterUpdate).max(REQUEST_LIMITS.MAX_ASSOCIATION_ITEMS, atMostItems('MAX_ASSOCIATION_ITEMS')).nullable().optional() }).catchall(Guid);
/** The items of an association key, once checked. */
type AssociationItems = z.infer<typeof AssociationItem>[];
/** An item's shape before its keys are known to be its model's id and ParameterUpdates. */
const AssociationItemsShape = z.array(z.record(z.string(), z.unknown())).max(REQUEST_LIMITS.MAX_ASSOCIATION_ITEMS, atMostItems('MAX_ASSOCIATION_ITEMS'));

/**
 * Association keys are checked here; any other key the model does not declare is a typo. Matched in any case, as every
 * property is: one given in two spellings (`ChampionshipAssociationsToAdd` and `championshipAssociationsToAdd`, or
 * an item's `ChampionshipId` and `championshipId`) is refused, not one of them silently applied.
 */
function refineExtraKeys(known: Set<string>) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const twice = (path: (string | number)[]) => ctx.addIssue({ code: 'custom', path, message: 'must be given once' });
    const seen = new Set<string>();
    for (const [key, items] of Object.entries(value)) {
      if (known.has(key)) continue;
      if (!ASSOCIATION_KEY.test(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'unknown property' });
        continue;
      }
      if (seen.has(key.toLowerCase())) twice([key]);
      seen.add(key.toLowerCase());
      // null is none, as an absent key (a .NET model serialises its unset lists so).
      if (items === null) continue;
      const report = (issues: z.core.$ZodIssue[], at: (string | number)[]) => {
        for (const issue of issues) ctx.addIssue({ code: 'custom', path: [...at, ...issue.path], message: issue.message });
      };
      const shaped = safeParseReporting(AssociationItemsShape, items);
      if (!shaped.success) {
        report(shaped.error.issues, [key]);
        continue;
      }
      // An item holds its model's id (`ChampionshipId` in `ChampionshipAssociationsToAdd`) and ParameterUpdates: any
      // other key is a typo, whatever its value.
      const idKey = `${(ASSOCIATION_KEY.exec(key) as RegExpExecArray)[1] as string}Id`.toLowerCase();
      shaped.data.forEach((item, i) => {
        const names = new Set<string>();
        for (const name of Object.keys(item)) {
          if (names.has(name.toLowerCase())) twice([key, i, name]);
          names.add(name.toLowerCase());
          if (name.toLowerCase() !== idKey && name.toLowerCase() !== 'parameterupdates') ctx.addIssue({ code: 'custom', path: [key, i, name], message: 'unknown property' });
        }
        const checked = safeParseReporting(AssociationItem, normalisedItem(item));
        if (!checked.success) report(checked.error.issues.filter((issue) => [idKey, 'parameterupdates'].includes(String(issue.path[0]).toLowerCase())), [key, i]);
      });
    }
  };
}

/** An association item with its ParameterUpdates under that spelling, in whatever case it came (every property binds in any case). */
function normalisedItem(item: Record<string, unknown>): Record<string, unknown> {
  const key = Object.keys(item).find((k) => k.toLowerCase() === 'parameterupdates');
  if (key === undefined || key === 'ParameterUpdates') return item;
  const { [key]: updates, ...rest } = item;
  return { ...rest, ParameterUpdates: updates };
}

/** The association keys of a create or update body, e.g. `{ ChampionshipAssociationsToAdd: [{ ChampionshipId }] }`. */
export function associationsOf(body: Record<string, unknown>): { model: string; action: 'add' | 'remove'; key: string; items: AssociationItems }[] {
  const out = [];
  for (const [key, items] of Object.entries(body)) {
    const m = ASSOCIATION_KEY.exec(key);
    if (!m || !Array.isArray(items)) continue;
    const model = (m[1] as string).charAt(0).toUpperCase() + (m[1] as string).slice(1);
    out.push({ model, action: (m[2] as string).toLowerCase() === 'toadd' ? ('add' as const) : ('remove' as const), key, items: (items as Record<string, unknown>[]).map(normalisedItem) as AssociationItems });
  }
  return out;
}

const CREATE_KEYS = new Set(['CopyFromId', 'CopyFromLast', 'CopyAll', 'Index', 'ParameterUpdates']);
export const CreateModel = z
  .looseObject({
    CopyFromId: Guid.nullable().optional(),
    CopyFromLast: z.boolean().optional(),
    CopyAll: z.boolean().optional(),
    Index: z.number().int().min(-1).nullable().optional(),
    ParameterUpdates: z.array(ParameterUpdate).max(REQUEST_LIMITS.MAX_PARAMETER_UPDATES, atMostItems('MAX_PARAMETER_UPDATES')).nullable().optional(),
  })
  .superRefine(refineExtraKeys(CREATE_KEYS))
  .meta({ id: 'CreateModel' });
export type CreateModel = z.infer<typeof CreateModel>;

export const CollectionItemUpdate = z.strictObject({
  Id: Guid.nullable().optional(),
  Delete: z.boolean().optional(),
  ParameterUpdates: z.array(ParameterUpdate).max(REQUEST_LIMITS.MAX_PARAMETER_UPDATES, atMostItems('MAX_PARAMETER_UPDATES')).nullable().optional(),
});
export type CollectionItemUpdate = z.infer<typeof CollectionItemUpdate>;

/** A date-time as the wrappers and timing systems send it (date-time.ts), passed on as ISO 8601 UTC with milliseconds. */
export const WireDateTime = z
  .string()
  .refine((v) => parseWireDateTime(v) !== undefined, { error: (issue) => wireDateTimeRefusal(String(issue.input)) ?? 'is not an ISO 8601 date-time' })
  .overwrite((v) => {
    const t = parseWireDateTime(v);
    return t === undefined ? v : new Date(t).toISOString();
  })
  .meta({ format: 'date-time', description: 'ISO 8601; no offset is UTC; up to 7 fractional digits, also after a semicolon' });

const UPDATE_KEYS = new Set(['LastModifiedTimeMaxAllowedValue', 'ParameterUpdates', 'CollectionUpdateModels']);
export const UpdateModel = z
  .looseObject({
    LastModifiedTimeMaxAllowedValue: WireDateTime.nullable().optional(),
    ParameterUpdates: z.array(ParameterUpdate).max(REQUEST_LIMITS.MAX_PARAMETER_UPDATES, atMostItems('MAX_PARAMETER_UPDATES')).nullable().optional(),
    CollectionUpdateModels: z
      .record(z.string(), z.array(CollectionItemUpdate))
      .refine((r) => Object.values(r).reduce((n, items) => n + items.length, 0) <= REQUEST_LIMITS.MAX_COLLECTION_ITEMS, `holds more than ${REQUEST_LIMITS.MAX_COLLECTION_ITEMS} items in all (MAX_COLLECTION_ITEMS)`)
      .nullable()
      .optional(),
  })
  .superRefine(refineExtraKeys(UPDATE_KEYS))
  .meta({ id: 'UpdateModel' });
export type UpdateModel = z.infer<typeof UpdateModel>;

export const SearchBody = z
  .strictObject({
    AssociatedModelSearchMode: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: (issue) => (issue.input === undefined || issue.input === null ? 'is required' : 'must be 0, 1, 2, 3 or 4 (a number)') }),
    AccountId: Guid.nullable().optional(),
    ChampionshipId: Guid.nullable().optional(),
    EventId: Guid.nullable().optional(),
    CarId: Guid.nullable().optional(),
    /** Narrows any mode further on a type that declares it as a filter (Tyres). */
    TyreSpecificationId: Guid.nullable().optional(),
  })
  // Beside the fields' own refusals too (EVERY_REFUSAL_AT_ONCE), so one answer names every bad field; the body is then
  // as sent: a mode that is not one of the five numbers needs nothing here (it is refused already; "constructor" is no
  // key of the table), an id of the wrong shape is already named.
  .superRefine(
    (b, ctx) => {
      const need: Record<number, (keyof typeof b)[]> = { 0: ['AccountId'], 1: ['ChampionshipId'], 2: ['EventId'], 3: ['CarId'], 4: ['EventId', 'CarId'] };
      const mode: unknown = b.AssociatedModelSearchMode;
      const needed = typeof mode === 'number' && Object.hasOwn(need, mode) ? (need[mode] as (keyof typeof b)[]) : [];
      for (const key of needed) {
        if (!b[key]) ctx.addIssue({ code: 'custom', path: [key], message: `is required for AssociatedModelSearchMode ${mode}` });
      }
    },
    EVERY_REFUSAL_AT_ONCE,
  )
  .meta({ id: 'SearchBody', description: '0 = Account, 1 = Championship, 2 = Event, 3 = Car, 4 = Event/Car' });
export type SearchBody = z.infer<typeof SearchBody>;

/** Entity JSON as wire.md §2 shapes it: Id, Parameters, then child collections. */
export const EntityJson = z
  .looseObject({
    Id: Guid,
    Parameters: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Entity', description: 'Id, typed Parameters, and one array per child collection (plus AttachedFiles).' });
export type EntityJson = { Id: string; Parameters: Record<string, unknown>; [collection: string]: unknown };

export const AccountSummary = z
  .object({ Id: Guid, Name: z.string(), Role: z.enum(['reader', 'editor', 'admin']).meta({ description: "The key's user's role in the account" }) })
  .meta({ id: 'AccountSummary' });

export const ProblemDetails = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().meta({ description: "The request's URL (a signed URL's path only); empty when the request was refused before its target could be read (a 431 whose request line came in an earlier read)" }),
    traceId: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'ProblemDetails' });
