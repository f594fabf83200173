/**
 * The bounds of a request's lists: each an environment variable of the process that validates the request (the
 * gateway, and the service behind it, which validates it again: give both the same value), with a documented default.
 * Read once, when the contracts load; a process without an environment (a browser bundling the client) keeps the
 * defaults. A value that is not a whole number of 1 or more is not taken here (the default stays): every service's
 * start checks these variables with its other settings (`BaseServiceConfig`) and stops naming the variable, in its own
 * log format, rather than this module throwing while it loads.
 */
export const REQUEST_LIMIT_DEFAULTS = {
  /** ParameterUpdates of one create, update or collection item. */
  MAX_PARAMETER_UPDATES: 10_000,
  /** Items of one update's CollectionUpdateModels, all collections together. */
  MAX_COLLECTION_ITEMS: 10_000,
  /** Items of one association key (`EventAssociationsToAdd`...), and ParameterUpdates of one item. */
  MAX_ASSOCIATION_ITEMS: 100,
  /** Properties of one timing update. */
  MAX_TIMING_PROPERTIES: 1_000,
  /** Paths of one `parametersToInclude`. */
  MAX_INCLUDE_PATHS: 200,
  /** Characters of one `parametersToInclude` path. */
  MAX_INCLUDE_PATH_LENGTH: 500,
  /**
   * Entity levels one `parametersToInclude` reads (each distinct collection or reference of its paths is one query):
   * 200 paths of 250 levels that part near the root had made 48,000 queries of one read.
   */
  MAX_INCLUDE_NODES: 1_000,
  /** Channels of one batch channel read. */
  MAX_BATCH_CHANNELS: 10_000,
  /** Channels of one lap statistics read. */
  MAX_LAP_STATS_CHANNELS: 1_000,
  /** Setups of one simulation Trigger, Reprocess or status read. */
  MAX_SIMULATION_SETUPS: 5_000,
  /** Ids of one attachment list (`attachedFileIds`). */
  MAX_ATTACHMENT_IDS: 1_000,
  /** Parameters of one query string (gateway). */
  MAX_QUERY_PARAMETERS: 10_000,
} as const;

export type RequestLimitName = keyof typeof REQUEST_LIMIT_DEFAULTS;

function fromEnvironment(): Record<RequestLimitName, number> {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const limits = { ...REQUEST_LIMIT_DEFAULTS } as Record<RequestLimitName, number>;
  for (const name of Object.keys(REQUEST_LIMIT_DEFAULTS) as RequestLimitName[]) {
    const raw = env[name];
    if (raw === undefined || !/^[0-9]+$/.test(raw)) continue;
    const value = Number(raw);
    if (Number.isSafeInteger(value) && value >= 1) limits[name] = value;
  }
  return limits;
}

/** The bounds in force in this process. */
export const REQUEST_LIMITS: Readonly<Record<RequestLimitName, number>> = Object.freeze(fromEnvironment());

/** The refusal of a list past its bound, naming the variable: `must have at most 10000 items (MAX_PARAMETER_UPDATES)`. */
export function atMostItems(name: RequestLimitName): { error: string } {
  return { error: `must have at most ${REQUEST_LIMITS[name]} items (${name})` };
}
