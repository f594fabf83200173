import { CHANNELS_MEDIA_TYPE, decodeChannels, isEventSeries, type ChannelSeries } from '@pitwall/channels';
import type { ChannelsBody, DataFileMetadataJson, EntityJson, HistogramBody, HistogramJson, LapStatsBody, LapStatsJson, ScatterBody, ScatterJson, TrackMapBody, TrackMapJson } from '@pitwall/contracts';
import type { Credentials } from './credentials';
import { ApiError } from './errors';

/** A dataset: an attached file group of an entity with data file access. */
export interface DatasetRef {
  entityType: 'RunSheets' | 'SessionCarDatas';
  entityId: string;
  group: string;
  /** What the page calls it: its entity's name / group (names may hold " (": it is never cut out of `label`). */
  name: string;
  /** What the dataset picker shows for it: the name and its files, `Run 1 / DataFile (Sample1.ld)`. */
  label: string;
}

export interface AttachmentJson {
  Id: string;
  Parameters: Record<string, unknown>;
  SignedURL: string | null;
}

/** `GET .../DataFileAccess/{group}/distance`: lap-relative seconds and the distance travelled at each. */
export interface LapDistanceJson {
  lapIndex: number;
  lapTime: number;
  source: { kind: string; channel: string };
  times: number[];
  distances: number[];
}

/** `GET .../DataFileAccess/{group}/delta`: time gained (negative) or lost against the reference lap, over distance. */
export interface LapDeltaJson {
  lap: { entityId: string; entityType: string; attachedFileGroupName: string; lapIndex: number; lapTime: number };
  reference: { entityId: string; entityType: string; attachedFileGroupName: string; lapIndex: number; lapTime: number };
  source: { kind: string; channel: string };
  distance: number[];
  delta: number[];
}

type Query = Record<string, string | number | undefined>;

/** The options of the lap trace reads: at most `maxPoints` points; `distanceChannel` names the distance source (absent or '': the service picks one). */
export interface LapTraceOptions {
  maxPoints?: number | undefined;
  distanceChannel?: string | undefined;
}

/** The public API as the page uses it: ApiKey and AccountId headers on every call, failures as ApiError. */
export class ViewerApi {
  constructor(
    private readonly credentials: Credentials,
    private readonly baseUrl = '',
  ) {}

  listAccounts(): Promise<{ Id: string; Name: string; Role: string }[]> {
    return this.json('GET', '/Accounts/GetAll');
  }
  championships(): Promise<EntityJson[]> {
    return this.json('GET', '/Championships');
  }
  events(championshipId: string): Promise<EntityJson[]> {
    return this.json('GET', '/Events', { championshipId });
  }
  sessions(eventId: string): Promise<EntityJson[]> {
    return this.json('GET', '/Sessions', { eventId });
  }
  /** The cars entered in an event (EventCars; each names its car in CarId). */
  eventCars(eventId: string): Promise<EntityJson[]> {
    return this.json('GET', '/EventCars', { eventId });
  }
  /** A car's data in a session (SessionCarDatas, which may hold datasets too). */
  sessionCarData(sessionId: string, carId: string): Promise<EntityJson[]> {
    return this.json('GET', '/SessionCarDatas', { sessionId, carId });
  }
  cars(): Promise<EntityJson[]> {
    return this.json('GET', '/Cars');
  }
  runSheets(sessionId: string, carId: string): Promise<EntityJson[]> {
    return this.json('GET', '/RunSheets', { sessionId, carId });
  }
  attachments(entityType: DatasetRef['entityType'], entityId: string): Promise<AttachmentJson[]> {
    return this.json('GET', `/${entityType}/${encodeURIComponent(entityId)}/Attachments`);
  }
  /** One entity's name (`GET /{Plural}/{id}?parametersToInclude=Name`): the holder of a math channel's constant. */
  entityNamed(plural: string, id: string): Promise<EntityJson> {
    return this.json('GET', `/${encodeURIComponent(plural)}/${encodeURIComponent(id)}`, { parametersToInclude: 'Name' });
  }
  /** Sets one custom parameter of an entity (`PUT /{Plural}/{id}`): a constant math channels read with param(). */
  async setParameter(plural: string, id: string, name: string, value: string): Promise<void> {
    await this.send('PUT', `/${encodeURIComponent(plural)}/${encodeURIComponent(id)}`, {}, { ParameterUpdates: [{ Name: name, Value: value }] }, 'application/json');
  }
  metadata(dataset: DatasetRef): Promise<DataFileMetadataJson> {
    return this.json('GET', `${datasetPath(dataset)}/metadata`);
  }

  /**
   * Defines a math channel of the account (docs/math-channels.md); a bad expression is a 400 naming where and why.
   * `rate` (Hz; empty for the fastest input's) and `decimalPlaces` (0 to 6, empty for full precision) are sent as
   * typed: the service says what it refuses.
   */
  createMathChannel(definition: { name: string; expression: string; unit: string; rate?: string; decimalPlaces?: string }): Promise<EntityJson> {
    const ParameterUpdates = [
      { Name: 'Name', Value: definition.name },
      { Name: 'Expression', Value: definition.expression },
      { Name: 'Unit', Value: definition.unit },
      ...(definition.rate ? [{ Name: 'Rate', Value: definition.rate }] : []),
      ...(definition.decimalPlaces ? [{ Name: 'DecimalPlaces', Value: definition.decimalPlaces }] : []),
    ];
    return this.json('POST', '/MathChannels', {}, { ParameterUpdates });
  }

  /** The account's math channels (every definition, whichever file can evaluate it). */
  mathChannels(): Promise<EntityJson[]> {
    return this.json('GET', '/MathChannels', { parametersToInclude: 'Name,Expression,Unit,Rate,DecimalPlaces' });
  }

  /** Changes a math channel: every field as typed (an empty rate or decimal places clears it). */
  async updateMathChannel(id: string, definition: { name: string; expression: string; unit: string; rate: string; decimalPlaces: string }): Promise<void> {
    const ParameterUpdates = [
      { Name: 'Name', Value: definition.name },
      { Name: 'Expression', Value: definition.expression },
      { Name: 'Unit', Value: definition.unit },
      { Name: 'Rate', Value: definition.rate || null },
      { Name: 'DecimalPlaces', Value: definition.decimalPlaces || null },
    ];
    await this.send('PUT', `/MathChannels/${encodeURIComponent(id)}`, {}, { ParameterUpdates }, 'application/json');
  }

  async deleteMathChannel(id: string): Promise<void> {
    await this.send('DELETE', `/MathChannels/${encodeURIComponent(id)}`, {}, undefined, 'application/json');
  }

  /** The account's saved viewer layouts (docs/viewer.md, Layouts). */
  viewerLayouts(): Promise<EntityJson[]> {
    // Names and descriptions only: Apply reads the one picked whole (`viewerLayout`), so sign-in does not read every Layout.
    return this.json('GET', '/ViewerLayouts', { parametersToInclude: 'Name,Description' });
  }

  /** One layout as it is now (a colleague may have updated it since the list was read). */
  viewerLayout(id: string): Promise<EntityJson> {
    return this.json('GET', `/ViewerLayouts/${encodeURIComponent(id)}`, { parametersToInclude: 'Name,Layout,Description' });
  }

  /** Saves a layout for the account; a name taken (whatever its case) or a Layout refused is the service's 400. */
  createViewerLayout(layout: { name: string; layout: string; description: string }): Promise<EntityJson> {
    const ParameterUpdates = [
      { Name: 'Name', Value: layout.name },
      { Name: 'Layout', Value: layout.layout },
      ...(layout.description ? [{ Name: 'Description', Value: layout.description }] : []),
    ];
    return this.json('POST', '/ViewerLayouts', {}, { ParameterUpdates });
  }

  /** Overwrites a layout's view (its name and description kept). */
  async updateViewerLayout(id: string, layout: string): Promise<void> {
    await this.send('PUT', `/ViewerLayouts/${encodeURIComponent(id)}`, {}, { ParameterUpdates: [{ Name: 'Layout', Value: layout }] }, 'application/json');
  }

  async deleteViewerLayout(id: string): Promise<void> {
    await this.send('DELETE', `/ViewerLayouts/${encodeURIComponent(id)}`, {}, undefined, 'application/json');
  }

  /** A batch read in the binary encoding, at most `maxPoints` points a channel (M4). */
  async channels(dataset: DatasetRef, body: ChannelsBody, maxPoints: number): Promise<ChannelSeries[]> {
    const response = await this.send('POST', `${datasetPath(dataset)}/channels`, { maxPoints: Math.max(4, Math.round(maxPoints)) }, body, CHANNELS_MEDIA_TYPE);
    // The viewer asks for numeric channels only (groupChannelsByUnit offers no other).
    return decodeChannels(await response.arrayBuffer()).filter((s): s is ChannelSeries => !isEventSeries(s));
  }

  /** A lap's distance trace (`GET .../distance`), from `distanceChannel` when one is named, else the service's pick. */
  distance(dataset: DatasetRef, lapIndex: number, options: LapTraceOptions = {}): Promise<LapDistanceJson> {
    return this.json('GET', `${datasetPath(dataset)}/distance`, distanceQuery(lapIndex, options));
  }

  /** A lap's time delta to a reference lap (`GET .../delta`), both laps' distances from `distanceChannel` when named. */
  delta(dataset: DatasetRef, lapIndex: number, reference: DatasetRef, referenceLapIndex: number, options: LapTraceOptions = {}): Promise<LapDeltaJson> {
    return this.json('GET', `${datasetPath(dataset)}/delta`, deltaQuery(dataset, lapIndex, reference, referenceLapIndex, options));
  }

  /** Each lap's time and sectors, and the report of each channel per lap (`POST .../lapstats`). */
  lapStats(dataset: DatasetRef, body: LapStatsBody): Promise<LapStatsJson> {
    return this.json('POST', `${datasetPath(dataset)}/lapstats`, {}, body);
  }

  /** One channel against another (`POST .../scatter`): points, or a density grid when there are many. */
  scatter(dataset: DatasetRef, body: ScatterBody): Promise<ScatterJson> {
    return this.json('POST', `${datasetPath(dataset)}/scatter`, {}, body);
  }

  /** A channel's histogram (`POST .../histogram`). */
  histogram(dataset: DatasetRef, body: HistogramBody): Promise<HistogramJson> {
    return this.json('POST', `${datasetPath(dataset)}/histogram`, {}, body);
  }

  /** A lap's track map (`POST .../trackmap`): its path in metres, coloured by a channel. */
  trackMap(dataset: DatasetRef, body: TrackMapBody): Promise<TrackMapJson> {
    return this.json('POST', `${datasetPath(dataset)}/trackmap`, {}, body);
  }

  private async json<T>(method: string, path: string, query: Query = {}, body?: unknown): Promise<T> {
    const response = await this.send(method, path, query, body, 'application/json');
    return (await response.json()) as T;
  }

  private async send(method: string, path: string, query: Query, body: unknown, accept: string): Promise<Response> {
    const url = `${this.baseUrl}${path}${queryString(query)}`;
    const headers: Record<string, string> = { ApiKey: this.credentials.apiKey, Accept: accept };
    if (this.credentials.accountId) headers['AccountId'] = this.credentials.accountId;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      // No redirect is followed: the API never answers one, and the ApiKey header would go along to wherever it pointed.
      response = await fetch(url, { method, headers, body: body === undefined ? null : JSON.stringify(body), credentials: 'omit', cache: 'no-store', redirect: 'error' });
    } catch (err) {
      throw new ApiError({ status: 0, reason: err instanceof Error ? err.message : String(err) });
    }
    if (response.ok) return response;
    let problem: ApiError['info']['problem'];
    try {
      problem = (await response.json()) as ApiError['info']['problem'];
    } catch {
      problem = undefined;
    }
    throw new ApiError({ status: response.status, problem, retryAfter: response.headers.get('Retry-After') });
  }
}

/** `/{Plural}/{id}/DataFileAccess/{group}` with the group URL-encoded. */
export function datasetPath(dataset: Pick<DatasetRef, 'entityType' | 'entityId' | 'group'>): string {
  return `/${dataset.entityType}/${encodeURIComponent(dataset.entityId)}/DataFileAccess/${encodeURIComponent(dataset.group)}`;
}

/** `?k=v&...` of the defined values, each name and value percent-encoded (a space as %20), or '' when there is none. */
export function queryString(query: Query): string {
  const pairs = Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`]));
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** The query of `GET .../distance`: `distanceChannel` only when one is chosen (Automatic sends none). */
export function distanceQuery(lapIndex: number, options: LapTraceOptions = {}): Query {
  return { lapIndex, maxPoints: options.maxPoints, distanceChannel: options.distanceChannel || undefined };
}

/** The query of `GET .../delta`: the reference dataset only when it is another one, `distanceChannel` only when chosen. */
export function deltaQuery(dataset: DatasetRef, lapIndex: number, reference: DatasetRef, referenceLapIndex: number, options: LapTraceOptions = {}): Query {
  const sameDataset = reference.entityId === dataset.entityId && reference.group === dataset.group;
  return {
    lapIndex,
    referenceLapIndex,
    ...(sameDataset ? {} : { referenceEntityId: reference.entityId, referenceAttachedFileGroupName: reference.group }),
    maxPoints: options.maxPoints,
    distanceChannel: options.distanceChannel || undefined,
  };
}
