/**
 * The entity registry: the one declaration of every entity type the service stores. The entity-service,
 * the gateway's routes and validation, the OpenAPI document and the client library all read it.
 * Adding a type is one entry here (the store is generic, so no migration is needed for a new type).
 */

export const PARAMETER_TYPES = ['Double', 'Integer', 'Boolean', 'DateTime', 'Text', 'Enum', 'Reference'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export interface ParameterDef {
  name: string;
  type: ParameterType;
  /** Enum: the allowed values. */
  enumValues?: readonly string[];
  /** Reference: the plural name of the referenced type; the parameter is `<X>Id`, the nested object `<X>`. */
  references?: string;
  unit?: string;
}

export interface ParentDef {
  /** camelCase query/body name, e.g. `eventId`. */
  key: string;
  /** Plural name of the parent type. */
  type: string;
}

export interface EntityTypeDef {
  /** Singular name, used in method names and events: `Setup`. */
  name: string;
  /** Plural name, the path segment: `Setups`. */
  plural: string;
  /** Parent keys in order; empty for account-level types. The first parent holds the child collection. */
  parents: readonly ParentDef[];
  /** Name of the collection on the first parent (default: plural). EventCars appear as an Event's `Cars`. */
  collectionName?: string;
  /**
   * False when the first parent does not show this type as a collection: per-car data (setups, car data) is read
   * by both parent ids, and an Event carries only Sessions and Cars (examples.md). Cascade and CopyAll still apply.
   */
  inParentCollection?: boolean;
  parameters: readonly ParameterDef[];
  /** Siblings keep an order (`Index` on create); run sheets are the runs of the timing integration. */
  ordered?: boolean;
  /** Siblings are read in the order of this numeric parameter first (Laps: StintLapNumber, 0 = out lap), then position. */
  orderByParameter?: string;
  features: { search?: boolean; attachments?: boolean; dataFileAccess?: boolean };
  /** A parent that must already be entered: e.g. a setup's car must be an EventCar of the event. */
  requiresEventCar?: 'event' | 'session';
  /** Rules of this type beyond the generic ones, by name; the entity-service implements each (src/domain/type-rules). */
  rules?: readonly EntityTypeRule[];
  /** Read-only over the API: create, update and delete are refused (Users: membership is managed by the admin CLI). */
  readOnly?: { reason: string };
  /** Reference parameters that filter a list (`GET /Tyres?tyreSpecificationId=`) and a search body (`TyreSpecificationId`). */
  filters?: readonly string[];
}

/**
 * Type-specific rules: `eventCarEntry` a car is entered once per event; `parameterDefinition` a custom parameter makes
 * sense; `mathChannel` a math channel's expression parses, its name is unique and it is part of no cycle;
 * `viewerLayout` a viewer layout's name is unique and its Layout is a view the viewer can read.
 */
export type EntityTypeRule = 'eventCarEntry' | 'parameterDefinition' | 'mathChannel' | 'viewerLayout';

/**
 * The version of the viewer layout format (`v=1` in a ViewerLayout's Layout): the view part of the viewer's link
 * (docs/viewer.md). A layout of another version is refused on write; the viewer reads this one.
 */
export const VIEWER_LAYOUT_VERSION = 1;

/**
 * How narrow a y scale of a viewer layout (or link) may be, relative to its size: its max must exceed its min by more
 * than `max(|min|, |max|) × VIEWER_Y_SCALE_MIN_SPAN`. A float64 holds about 16 significant digits; in a narrower range
 * (1e16 to 1e16 + 4) a plot's ticks have no number to step to, and the axis never ends. The entity-service refuses one
 * on write; the viewer refuses one from a link, a layout or its y scale form.
 */
export const VIEWER_Y_SCALE_MIN_SPAN = 1e-12;

/**
 * The most decimals a math channel's DecimalPlaces may ask for: 10^6 is the finest decimal scale the channel reads print
 * digit by digit (a logged scaled channel's path), and at 6 decimals an int32 code already stops at ±2,147.483647.
 */
export const MAX_MATH_DECIMAL_PLACES = 6;

const text = (name: string): ParameterDef => ({ name, type: 'Text' });
const double = (name: string, unit?: string): ParameterDef => ({ name, type: 'Double', ...(unit ? { unit } : {}) });
const integer = (name: string): ParameterDef => ({ name, type: 'Integer' });
const dateTime = (name: string): ParameterDef => ({ name, type: 'DateTime' });
const reference = (name: string, references: string): ParameterDef => ({ name: `${name}Id`, type: 'Reference', references });
const enumeration = (name: string, enumValues: readonly string[]): ParameterDef => ({ name, type: 'Enum', enumValues });
const associations = [reference('Championship', 'Championships'), reference('Event', 'Events'), reference('Car', 'Cars')];
const NAME = text('Name');

export const ENTITY_TYPES: readonly EntityTypeDef[] = [
  { name: 'Championship', plural: 'Championships', parents: [], parameters: [NAME, integer('Year'), text('Description')], features: { attachments: true } },
  { name: 'Event', plural: 'Events', parents: [{ key: 'championshipId', type: 'Championships' }], parameters: [NAME, dateTime('StartDate'), dateTime('EndDate'), text('Venue')], features: { attachments: true } },
  {
    name: 'Session',
    plural: 'Sessions',
    parents: [{ key: 'eventId', type: 'Events' }],
    parameters: [NAME, reference('TrackConfiguration', 'TrackConfigurations'), dateTime('StartTime'), enumeration('SessionType', ['Practice', 'Qualifying', 'Race', 'Test'])],
    ordered: true,
    features: { attachments: true },
  },
  { name: 'Car', plural: 'Cars', parents: [], parameters: [NAME, text('Number'), text('Chassis')], features: { attachments: true } },
  {
    name: 'EventCar',
    plural: 'EventCars',
    parents: [{ key: 'eventId', type: 'Events' }, { key: 'carId', type: 'Cars' }],
    collectionName: 'Cars',
    parameters: [NAME, reference('Car', 'Cars'), text('SetupDefinitionId')],
    features: { attachments: true },
    rules: ['eventCarEntry'],
  },
  { name: 'Driver', plural: 'Drivers', parents: [], parameters: [NAME, text('ShortName'), text('Nationality')], features: { attachments: true } },
  { name: 'Track', plural: 'Tracks', parents: [], parameters: [NAME, text('Country')], features: { attachments: true } },
  { name: 'TrackConfiguration', plural: 'TrackConfigurations', parents: [{ key: 'trackId', type: 'Tracks' }], parameters: [NAME, double('Length', 'm')], features: { attachments: true } },
  { name: 'TrackSectorDefinition', plural: 'TrackSectorDefinitions', parents: [{ key: 'trackConfigurationId', type: 'TrackConfigurations' }], parameters: [NAME, double('StartDistance', 'm')], ordered: true, features: { attachments: true } },
  { name: 'TrackSpeedTrapDefinition', plural: 'TrackSpeedTrapDefinitions', parents: [{ key: 'trackConfigurationId', type: 'TrackConfigurations' }], parameters: [NAME, double('Distance', 'm')], ordered: true, features: { attachments: true } },
  {
    name: 'Setup',
    plural: 'Setups',
    parents: [{ key: 'eventId', type: 'Events' }, { key: 'carId', type: 'Cars' }],
    parameters: [NAME, text('Notes')],
    requiresEventCar: 'event',
    inParentCollection: false,
    features: { attachments: true, dataFileAccess: true },
  },
  { name: 'EventCarData', plural: 'EventCarDatas', parents: [{ key: 'eventId', type: 'Events' }, { key: 'carId', type: 'Cars' }], parameters: [NAME], requiresEventCar: 'event', inParentCollection: false, features: { attachments: true } },
  {
    name: 'Tyre',
    plural: 'Tyres',
    parents: [],
    parameters: [NAME, text('Compound'), text('SerialNumber'), ...associations, reference('TyreSpecification', 'TyreSpecifications')],
    filters: ['TyreSpecificationId'],
    features: { search: true, attachments: true },
  },
  { name: 'TyreWearMeasurement', plural: 'TyreWearMeasurements', parents: [{ key: 'tyreId', type: 'Tyres' }], parameters: [NAME, double('TreadDepth', 'mm'), dateTime('MeasuredTime')], ordered: true, features: { attachments: true } },
  {
    name: 'IssueListIssue',
    plural: 'IssueListIssues',
    parents: [],
    parameters: [NAME, text('Description'), enumeration('Status', ['Open', 'InProgress', 'Closed']), ...associations],
    features: { search: true, attachments: true },
  },
  { name: 'AssemblyIteration', plural: 'AssemblyIterations', parents: [], parameters: [NAME, text('Description'), ...associations], features: { search: true, attachments: true } },
  {
    name: 'RunSheet',
    plural: 'RunSheets',
    parents: [{ key: 'sessionId', type: 'Sessions' }, { key: 'carId', type: 'Cars' }],
    parameters: [NAME, reference('Driver', 'Drivers'), reference('Setup', 'Setups'), dateTime('PitInTime'), dateTime('PitOutTime'), double('PitInSessionTime', 's'), double('PitOutSessionTime', 's')],
    ordered: true,
    requiresEventCar: 'session',
    features: { attachments: true, dataFileAccess: true },
  },
  { name: 'Lap', plural: 'Laps', parents: [{ key: 'runSheetId', type: 'RunSheets' }], parameters: [NAME, integer('StintLapNumber'), double('LapTime', 's')], ordered: true, orderByParameter: 'StintLapNumber', features: { attachments: true } },
  { name: 'LapSector', plural: 'LapSectors', parents: [{ key: 'lapId', type: 'Laps' }], parameters: [NAME, reference('TrackSectorDefinition', 'TrackSectorDefinitions'), double('SectorTime', 's')], ordered: true, features: { attachments: true } },
  { name: 'LapSpeedTrap', plural: 'LapSpeedTraps', parents: [{ key: 'lapId', type: 'Laps' }], parameters: [NAME, reference('TrackSpeedTrapDefinition', 'TrackSpeedTrapDefinitions'), double('Speed', 'km/h')], ordered: true, features: { attachments: true } },
  { name: 'SessionCarData', plural: 'SessionCarDatas', parents: [{ key: 'sessionId', type: 'Sessions' }, { key: 'carId', type: 'Cars' }], parameters: [NAME], requiresEventCar: 'session', inParentCollection: false, features: { attachments: true, dataFileAccess: true } },
  {
    name: 'ExternalSimulationProfile',
    plural: 'ExternalSimulationProfiles',
    parents: [],
    parameters: [
      NAME,
      text('SimulationType'),
      // The external system's API address, and the setup parameters a simulation's progress and results are written to.
      text('BaseUrl'),
      text('StatusParameterName'),
      text('StatusMessageParameterName'),
      text('StudyIdParameterName'),
      text('StatusUpdateTimeParameterName'),
      text('ResultParameterNames'),
    ],
    features: { attachments: true },
  },
  {
    name: 'ParameterDefinition',
    plural: 'ParameterDefinitions',
    parents: [],
    parameters: [NAME, text('EntityType'), enumeration('ParameterType', PARAMETER_TYPES), text('EnumValues'), text('Unit'), text('ReferencedEntityType')],
    features: { attachments: true },
    rules: ['parameterDefinition'],
  },
  {
    // A channel computed from others by an expression (docs/math-channels.md), listed in every data file's catalogue
    // in the group "Math". Rate (Hz): the time base it is evaluated on; empty: the fastest input's. DecimalPlaces (0 to
    // MAX_MATH_DECIMAL_PLACES): its values rounded to that many decimals for every reader, sent as integer codes with a
    // decimal conversion like a logged scaled channel; empty: full precision.
    name: 'MathChannel',
    plural: 'MathChannels',
    parents: [],
    parameters: [NAME, text('Expression'), text('Unit'), double('Rate', 'Hz'), integer('DecimalPlaces'), text('Description')],
    features: { attachments: true },
    rules: ['mathChannel'],
  },
  {
    // A view of the browser viewer saved for the account (docs/viewer.md, Layouts), as MoTeC i2's workbooks and ATLAS's
    // displays: the ticked channels in order, the panes, the time axis and the y scales, applied to any dataset. Layout:
    // the view part of the viewer's link with its version (`v=1&ch=Ground%20Speed&panes=unit`), checked on write.
    name: 'ViewerLayout',
    plural: 'ViewerLayouts',
    parents: [],
    parameters: [NAME, text('Layout'), text('Description')],
    features: { attachments: true },
    rules: ['viewerLayout'],
  },
  // The rest of the real system's types (wire.md §3b). Parents marked * there are a best reading of public sources.
  {
    name: 'AmbientMeasurement',
    plural: 'AmbientMeasurements',
    parents: [{ key: 'eventId', type: 'Events' }],
    parameters: [
      NAME,
      dateTime('MeasurementTime'),
      double('AirTemperature', '°C'),
      double('TrackTemperature', '°C'),
      double('WindSpeed', 'm/s'),
      double('WindDirection', '°'),
      double('Humidity', '%'),
      double('AirPressure', 'hPa'),
      enumeration('AmbientMeasurementDataSource', ['Weather Station', 'Manual', 'Imported', 'Timing Feed']),
    ],
    inParentCollection: false,
    features: { attachments: true },
  },
  ...lookupLists(['Team', 'CarManufacturer', 'Category', 'SessionType', 'SessionStatus', 'PartCategory', 'IssueListCategory', 'JobListCategory', 'JobListTemplate', 'NamedAssembly']),
  { name: 'CarModel', plural: 'CarModels', parents: [], parameters: [NAME, text('Description'), reference('CarManufacturer', 'CarManufacturers')], features: { attachments: true } },
  { name: 'Part', plural: 'Parts', parents: [], parameters: [NAME, text('PartNumber'), text('Description'), reference('PartCategory', 'PartCategories'), double('Mileage', 'km'), double('MileageLimit', 'km')], features: { attachments: true } },
  { name: 'PartItem', plural: 'PartItems', parents: [{ key: 'partId', type: 'Parts' }], parameters: [NAME, text('SerialNumber'), double('Mileage', 'km'), double('MileageLimit', 'km')], features: { attachments: true } },
  { name: 'TyreSpecification', plural: 'TyreSpecifications', parents: [], parameters: [NAME, text('Manufacturer'), text('Compound'), text('Size')], features: { attachments: true } },
  { name: 'BrakeDiscSpecification', plural: 'BrakeDiscSpecifications', parents: [], parameters: [NAME, text('Manufacturer'), text('Material'), double('Diameter', 'mm'), double('Thickness', 'mm')], features: { attachments: true } },
  { name: 'BrakePadSpecification', plural: 'BrakePadSpecifications', parents: [], parameters: [NAME, text('Manufacturer'), text('Compound'), double('Thickness', 'mm')], features: { attachments: true } },
  { name: 'TyreSet', plural: 'TyreSets', parents: [], parameters: [NAME, text('SerialNumber'), ...associations], features: { search: true, attachments: true } },
  { name: 'BrakeDisc', plural: 'BrakeDiscs', parents: [], parameters: [NAME, text('SerialNumber'), reference('BrakeDiscSpecification', 'BrakeDiscSpecifications'), double('Mileage', 'km'), ...associations], features: { search: true, attachments: true } },
  { name: 'BrakePad', plural: 'BrakePads', parents: [], parameters: [NAME, text('SerialNumber'), reference('BrakePadSpecification', 'BrakePadSpecifications'), double('Mileage', 'km'), ...associations], features: { search: true, attachments: true } },
  { name: 'BrakeSet', plural: 'BrakeSets', parents: [], parameters: [NAME, text('SerialNumber'), double('Mileage', 'km'), ...associations], features: { search: true, attachments: true } },
  { name: 'TyreSetPressureAdjustment', plural: 'TyreSetPressureAdjustments', parents: [{ key: 'tyreSetId', type: 'TyreSets' }], parameters: [NAME, dateTime('AdjustmentTime'), double('PressureChange', 'kPa'), text('Notes')], ordered: true, features: { attachments: true } },
  {
    name: 'TyreWearSheet',
    plural: 'TyreWearSheets',
    parents: [{ key: 'eventId', type: 'Events' }, { key: 'carId', type: 'Cars' }],
    parameters: [NAME, text('Notes')],
    requiresEventCar: 'event',
    inParentCollection: false,
    features: { attachments: true },
  },
  {
    name: 'TyreWearMeasurementItem',
    plural: 'TyreWearMeasurementItems',
    parents: [{ key: 'tyreWearMeasurementId', type: 'TyreWearMeasurements' }],
    parameters: [NAME, text('Position'), double('Depth', 'mm')],
    ordered: true,
    features: { attachments: true },
  },
  ...sessionCarLists(['ReferencePressureRun', 'PlannedRun', 'RunPlan'], { ordered: true }),
  { name: 'PlannedLap', plural: 'PlannedLaps', parents: [{ key: 'plannedRunId', type: 'PlannedRuns' }], parameters: [NAME, double('TargetLapTime', 's'), text('Notes')], ordered: true, features: { attachments: true } },
  { name: 'LapMarker', plural: 'LapMarkers', parents: [{ key: 'lapId', type: 'Laps' }], parameters: [NAME, double('Time', 's'), text('Label')], ordered: true, features: { attachments: true } },
  { name: 'LapTrackStatusMarker', plural: 'LapTrackStatusMarkers', parents: [{ key: 'lapId', type: 'Laps' }], parameters: [NAME, double('Time', 's'), text('TrackStatus')], ordered: true, features: { attachments: true } },
  ...sessionCarLists(['SessionObjectIssue', 'SessionObjectJob'], { extra: [text('Description'), enumeration('Status', ['Open', 'InProgress', 'Closed'])] }),
  { name: 'JobListTemplateItem', plural: 'JobListTemplateItems', parents: [{ key: 'jobListTemplateId', type: 'JobListTemplates' }], parameters: [NAME, text('Description'), reference('JobListCategory', 'JobListCategories')], ordered: true, features: { attachments: true } },
  {
    name: 'User',
    plural: 'Users',
    parents: [],
    parameters: [NAME, text('Email')],
    readOnly: { reason: "Users are the account's members, read-only here: membership is managed with the admin CLI (npm run admin -- help)" },
    features: { attachments: true },
  },
];

/** Account-level lookup lists (wire.md §3b): a Name and a Description. */
function lookupLists(names: readonly string[]): EntityTypeDef[] {
  return names.map((name) => ({ name, plural: pluralOf(name), parents: [], parameters: [NAME, text('Description')], features: { attachments: true } }));
}

/** Per-car lists of a session beside the run sheets (wire.md §3b): read by both parent ids, like SessionCarDatas. */
function sessionCarLists(names: readonly string[], options: { ordered?: boolean; extra?: readonly ParameterDef[] }): EntityTypeDef[] {
  return names.map((name) => ({
    name,
    plural: pluralOf(name),
    parents: [{ key: 'sessionId', type: 'Sessions' }, { key: 'carId', type: 'Cars' }],
    parameters: [NAME, text('Notes'), ...(options.extra ?? [])],
    ...(options.ordered ? { ordered: true } : {}),
    requiresEventCar: 'session' as const,
    inParentCollection: false,
    features: { attachments: true },
  }));
}

function pluralOf(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|sh|ch|x)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/** Parameters every attached file record carries (wire.md §3). */
export const ATTACHED_FILE_PARAMETERS: readonly ParameterDef[] = [
  text('FileName'),
  integer('FileSize'),
  { name: 'UseCompression', type: 'Boolean' },
  integer('ServerAttachedFileState'),
  text('AttachedFileGroupName'),
  dateTime('CreatedTime'),
];

const byPlural = new Map(ENTITY_TYPES.map((t) => [t.plural.toLowerCase(), t]));

export function entityType(plural: string): EntityTypeDef | undefined {
  return byPlural.get(plural.toLowerCase());
}

export function requireEntityType(plural: string): EntityTypeDef {
  const t = entityType(plural);
  if (!t) throw new Error(`Unknown entity type ${plural}`);
  return t;
}

/** The name under which `child` appears as a collection on its first parent. */
export function collectionNameOf(child: EntityTypeDef): string {
  return child.collectionName ?? child.plural;
}

/** Child types whose first parent is `parent`, i.e. the collections an entity of `parent` holds. */
export function childTypesOf(parent: EntityTypeDef): EntityTypeDef[] {
  return ENTITY_TYPES.filter((t) => t.parents[0]?.type === parent.plural && t.inParentCollection !== false);
}

/** The collection names of a type, in output order, ending with AttachedFiles when attachments are enabled. */
export function collectionNamesOf(type: EntityTypeDef): string[] {
  const names = childTypesOf(type).map(collectionNameOf);
  if (type.features.attachments) names.push('AttachedFiles');
  return names;
}

/** PascalCase name of a parent key: `eventId` → `EventId`. */
export function pascal(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}
