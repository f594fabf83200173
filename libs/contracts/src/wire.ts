import { z } from 'zod';

/**
 * HTTP body schemas of wire.md. Property names are the canonical spelling; requests are bound
 * case-insensitively onto them (see binding.ts) and unknown properties are rejected.
 */

export const Guid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'is not a GUID').meta({ id: 'Guid', format: 'uuid' });

export const ParameterUpdate = z
  .strictObject({
    Name: z.string().min(1, 'is required'),
    Value: z.string().nullable(),
  })
  .meta({ id: 'ParameterUpdate', description: 'Sets a named parameter; values always travel as strings and are converted to the parameter type.' });
export type ParameterUpdate = z.infer<typeof ParameterUpdate>;

const associationKey = /^[A-Za-z]+Associations?(ToAdd|ToRemove)?$/;

export const CreateModel = z
  .looseObject({
    CopyFromId: Guid.nullable().optional(),
    CopyFromLast: z.boolean().optional(),
    CopyAll: z.boolean().optional(),
    Index: z.number().int().min(-1).nullable().optional(),
    ParameterUpdates: z.array(ParameterUpdate).max(10_000).optional(),
  })
  .superRefine((value, ctx) => {
    // Extra top-level association keys (e.g. ChampionshipAssociationsToAdd) are allowed; any other unknown key is a typo.
    for (const key of Object.keys(value)) {
      if (!CREATE_KEYS.has(key) && !associationKey.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown property' });
    }
  })
  .meta({ id: 'CreateModel' });
const CREATE_KEYS = new Set(['CopyFromId', 'CopyFromLast', 'CopyAll', 'Index', 'ParameterUpdates']);
export type CreateModel = z.infer<typeof CreateModel>;

export const CollectionItemUpdate = z.strictObject({
  Id: Guid.nullable().optional(),
  Delete: z.boolean().optional(),
  ParameterUpdates: z.array(ParameterUpdate).max(10_000).optional(),
});
export type CollectionItemUpdate = z.infer<typeof CollectionItemUpdate>;

export const UpdateModel = z
  .strictObject({
    LastModifiedTimeMaxAllowedValue: z.iso.datetime({ offset: true }).nullable().optional(),
    ParameterUpdates: z.array(ParameterUpdate).max(10_000).optional(),
    CollectionUpdateModels: z.record(z.string(), z.array(CollectionItemUpdate).max(10_000)).nullable().optional(),
  })
  .meta({ id: 'UpdateModel' });
export type UpdateModel = z.infer<typeof UpdateModel>;

export const SearchBody = z
  .strictObject({
    AssociatedModelSearchMode: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
    AccountId: Guid.nullable().optional(),
    ChampionshipId: Guid.nullable().optional(),
    EventId: Guid.nullable().optional(),
    CarId: Guid.nullable().optional(),
  })
  .superRefine((b, ctx) => {
    const need: Record<number, (keyof typeof b)[]> = { 0: ['AccountId'], 1: ['ChampionshipId'], 2: ['EventId'], 3: ['CarId'], 4: ['EventId', 'CarId'] };
    for (const key of need[b.AssociatedModelSearchMode] ?? []) {
      if (!b[key]) ctx.addIssue({ code: 'custom', path: [key], message: `is required for AssociatedModelSearchMode ${b.AssociatedModelSearchMode}` });
    }
  })
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

export const AccountSummary = z.object({ Id: Guid, Name: z.string() }).meta({ id: 'AccountSummary' });

export const ProblemDetails = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    traceId: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'ProblemDetails' });
