import { AppError, shortened, type FieldErrors } from '@pitwall/service-kit';
import { GUID_PATTERN, isStorableText, PARAMETER_TYPES, UNSTORABLE_TEXT, OUTSIDE_WIRE_YEARS, parseWireDateTime, wireDateTimeRefusal, type EntityTypeDef, type ParameterDef, type ParameterType, type ParameterUpdate } from '@pitwall/contracts';

/** A parameter value as stored and returned: typed JSON. */
export type ParameterValue = number | string | boolean | null;

/** The parameters an account's entities of one type accept: the registry's built-ins plus its ParameterDefinitions. */
export class ParameterSet {
  private readonly byLowerName: Map<string, ParameterDef>;

  constructor(readonly type: EntityTypeDef, custom: readonly ParameterDef[]) {
    this.byLowerName = new Map([...type.parameters, ...custom].map((p) => [p.name.toLowerCase(), p]));
  }

  get(name: string): ParameterDef | undefined {
    return this.byLowerName.get(name.toLowerCase());
  }

  all(): ParameterDef[] {
    return [...this.byLowerName.values()];
  }

  /** Reference parameters by the name of their nested object (`Car` for `CarId`). */
  referenceByObjectName(name: string): ParameterDef | undefined {
    const p = this.get(`${name}Id`);
    return p?.type === 'Reference' ? p : undefined;
  }
}

/** Custom parameter definition rows → ParameterDefs per entity type (plural). */
export function customParametersByType(definitions: { parameters: Record<string, unknown> }[]): Map<string, ParameterDef[]> {
  const out = new Map<string, ParameterDef[]>();
  for (const { parameters: p } of definitions) {
    const entityType = String(p['EntityType'] ?? '');
    const name = String(p['Name'] ?? '');
    const type = p['ParameterType'] as ParameterType;
    if (!entityType || !name || !PARAMETER_TYPES.includes(type)) continue;
    const def: ParameterDef = { name, type };
    if (type === 'Enum') def.enumValues = String(p['EnumValues'] ?? '').split(',').map((v) => v.trim()).filter(Boolean);
    if (type === 'Reference' && p['ReferencedEntityType']) def.references = String(p['ReferencedEntityType']);
    if (p['Unit']) def.unit = String(p['Unit']);
    const list = out.get(entityType.toLowerCase()) ?? [];
    list.push(def);
    out.set(entityType.toLowerCase(), list);
  }
  return out;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Converts a wire string to the parameter's type; returns an error message when it does not convert. */
export function convertValue(def: ParameterDef, raw: string | null): { value: ParameterValue } | { error: string } {
  if (raw === null) return { value: null };
  switch (def.type) {
    case 'Text':
      // PostgreSQL's jsonb cannot hold NUL or an unpaired surrogate: refuse them here rather than fail the write.
      return !isStorableText(raw)
        ? { error: `${def.name} is a Text; it ${UNSTORABLE_TEXT}` }
        : { value: raw };
    case 'Double': {
      // Decimal notation only: Number() would also take 0x10, 0b1 and Infinity. One too large for a double says so.
      if (!DECIMAL.test(raw.trim())) return { error: `${def.name} is a Double; '${raw}' is not a number` };
      const v = Number(raw);
      return Number.isFinite(v) ? { value: v } : { error: `${def.name} is a Double; '${raw}' is beyond a Double's range (±1.797e308)` };
    }
    case 'Integer': {
      if (!/^[+-]?\d+$/.test(raw.trim())) return { error: `${def.name} is an Integer; '${raw}' is not a whole number` };
      const v = Number(raw);
      return Number.isSafeInteger(v) ? { value: v } : { error: `${def.name} is an Integer; '${raw}' is outside -9007199254740991 to 9007199254740991` };
    }
    case 'Boolean': {
      const v = raw.trim().toLowerCase();
      if (v === 'true' || v === '1') return { value: true };
      if (v === 'false' || v === '0') return { value: false };
      return { error: `${def.name} is a Boolean; '${raw}' is not true or false` };
    }
    case 'DateTime': {
      const t = parseWireDateTime(raw);
      if (t !== undefined) return { value: new Date(t).toISOString() };
      // The wording of examples.md for a value that is no date; one past the wrappers' years says so.
      const outside = wireDateTimeRefusal(raw) === OUTSIDE_WIRE_YEARS;
      return { error: `${def.name} is a DateTime; '${raw}' ${outside ? OUTSIDE_WIRE_YEARS : 'is not an ISO 8601 date'}` };
    }
    case 'Enum': {
      // By name (any case), or by 0-based index as the official examples write it (`AmbientMeasurementDataSource` = "2").
      const values = def.enumValues ?? [];
      const wanted = raw.trim().toLowerCase();
      const match = values.find((e) => e.toLowerCase() === wanted) ?? (/^\d+$/.test(wanted) ? values[Number(wanted)] : undefined);
      return match ? { value: match } : { error: `${def.name} is an Enum; '${raw}' is not one of ${values.join(', ')} nor an index from 0 to ${values.length - 1}` };
    }
    case 'Reference':
      return GUID_PATTERN.test(raw.trim())
        ? { value: raw.trim().toLowerCase() }
        : { error: `${def.name} is a Reference; '${raw}' is not a GUID` };
  }
}

export interface ConvertedUpdate {
  def: ParameterDef;
  value: ParameterValue;
  /** Index in the request's ParameterUpdates, for error paths. */
  index: number;
  /** Error path when the value came from elsewhere than ParameterUpdates (an association key). */
  path?: string;
}

/** How a request body spells an update's two fields, for error paths: `Name` and `Value` in ParameterUpdates. */
export interface UpdateFieldNames {
  name: string;
  value: string;
}

const PARAMETER_UPDATE_FIELDS: UpdateFieldNames = { name: 'Name', value: 'Value' };

/**
 * Converts a list of ParameterUpdates against a parameter set. Every problem is collected and reported
 * at once as a 400 naming the field (`ParameterUpdates[i].Name` / `.Value`, or as `pathPrefix` and `fields` spell
 * them), so nothing is written.
 */
export function convertUpdates(set: ParameterSet, updates: readonly ParameterUpdate[] | null | undefined, pathPrefix = 'ParameterUpdates', fields = PARAMETER_UPDATE_FIELDS): ConvertedUpdate[] {
  const { converted, errors } = tryConvertUpdates(set, updates, pathPrefix, fields);
  if (Object.keys(errors).length) throw AppError.badRequest('The request body is not valid', errors);
  return converted;
}

/** The longest name a refusal repeats; a longer one is cut there, with `…` (a 500 KB name was echoed twice whole). */
export const MAX_QUOTED_NAME = 200;
const quotedName = (name: string): string => shortened(name, MAX_QUOTED_NAME);

/** `convertUpdates` without the throw: the updates that convert, and the errors of those that do not. */
export function tryConvertUpdates(set: ParameterSet, updates: readonly ParameterUpdate[] | null | undefined, pathPrefix = 'ParameterUpdates', fields = PARAMETER_UPDATE_FIELDS): { converted: ConvertedUpdate[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const out: ConvertedUpdate[] = [];
  (updates ?? []).forEach((u, index) => {
    const def = set.get(u.Name);
    if (!def) {
      (errors[`${pathPrefix}[${index}].${fields.name}`] ??= []).push(`${set.type.plural} has no parameter named '${quotedName(u.Name)}'`);
      return;
    }
    const converted = convertValue(def, u.Value);
    if ('error' in converted) (errors[`${pathPrefix}[${index}].${fields.value}`] ??= []).push(converted.error);
    else out.push({ def, value: converted.value, index });
  });
  return { converted: out, errors };
}
