import { z } from 'zod';
import { ATTACHED_FILE_PARAMETERS, ENTITY_TYPES, childTypesOf, collectionNameOf, type EntityTypeDef, type ParameterDef } from './registry';
import { Guid } from './wire';

/** A parameter's JSON type on the wire (wire.md §2), nullable: a parameter may be unset. */
function parameterSchema(p: ParameterDef): z.ZodType {
  const description = [p.type === 'Reference' ? `Id of one of the ${p.references ?? 'referenced entities'}` : p.type, p.unit ? `unit ${p.unit}` : ''].filter(Boolean).join(', ');
  const base: Record<ParameterDef['type'], () => z.ZodType> = {
    Double: () => z.number(),
    Integer: () => z.number().int(),
    Boolean: () => z.boolean(),
    DateTime: () => z.string().meta({ format: 'date-time' }),
    Text: () => z.string(),
    Enum: () => z.enum((p.enumValues ?? []) as [string, ...string[]]),
    Reference: () => z.string().meta({ format: 'uuid' }),
  };
  return base[p.type]().nullable().optional().meta({ description });
}

const EntityReference = z
  .object({ Id: Guid, Parameters: z.record(z.string(), z.unknown()) })
  .meta({ id: 'EntityReference', description: 'A referenced entity: its Id, and its parameters only when a projection asks (`Car.*`, `Car.Number`).' });

const AttachedFileRecord = z
  .object({ Id: Guid, Parameters: z.object(Object.fromEntries(ATTACHED_FILE_PARAMETERS.map((p) => [p.name, parameterSchema(p)]))) })
  .meta({ id: 'AttachedFile' });

/**
 * One schema per registry type (components named by the singular name): typed Parameters (built-ins; an account's
 * custom parameters come as additional properties), the nested object beside each reference, and the child
 * collections as arrays of the child's schema. Everything is optional: `parametersToInclude` decides what appears.
 */
function buildEntitySchemas(): Map<string, z.ZodType> {
  const out = new Map<string, z.ZodType>();
  const build = (type: EntityTypeDef): z.ZodType => {
    const known = out.get(type.plural);
    if (known) return known;
    const parameters: Record<string, z.ZodType> = {};
    for (const p of type.parameters) {
      parameters[p.name] = parameterSchema(p);
      if (p.type === 'Reference') parameters[p.name.slice(0, -2)] = EntityReference.optional();
    }
    const collections: Record<string, z.ZodType> = {};
    for (const child of childTypesOf(type)) collections[collectionNameOf(child)] = z.array(build(child)).optional();
    if (type.features.attachments) collections['AttachedFiles'] = z.array(AttachedFileRecord).optional();
    const schema = z
      .object({ Id: Guid, Parameters: z.looseObject(parameters).optional(), ...collections })
      .meta({ id: type.name, description: `A ${type.name}: parameters typed as declared, collections present when projected (or empty with no projection).` });
    out.set(type.plural, schema);
    return schema;
  };
  for (const type of ENTITY_TYPES) build(type);
  return out;
}

let schemas: Map<string, z.ZodType> | undefined;

/** The response schema of a registry type (by plural name), built once for the operation table and the OpenAPI document. */
export function entitySchemaOf(plural: string): z.ZodType {
  schemas ??= buildEntitySchemas();
  const schema = schemas.get(plural);
  if (!schema) throw new Error(`Unknown entity type ${plural}`);
  return schema;
}
