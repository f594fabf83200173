import { randomUUID } from 'node:crypto';
import { PitwallClient, type ClientResult } from '@pitwall/client';
import { compressLz4 } from '@pitwall/formats';

/** The parents a type with data file access is created under, by the ids of one championship's chain. */
const PARENTS: Record<string, (chain: Chain) => Record<string, string>> = {
  RunSheets: (c) => ({ sessionId: c.sessionId, carId: c.carId }),
  SessionCarDatas: (c) => ({ sessionId: c.sessionId, carId: c.carId }),
  Setups: (c) => ({ eventId: c.eventId, carId: c.carId }),
};

export interface Chain {
  eventId: string;
  sessionId: string;
  carId: string;
}

export interface AttachOptions {
  /** Uploaded as one LZ4 frame with UseCompression. */
  compressed?: boolean;
  /** The bytes are an LZ4 stream already (a hostile one, say): uploaded as they are, with UseCompression. */
  frame?: boolean;
  /** CustomPropertyAttachedFileName, with IfSingleOverwriteExisting: finalising replaces the entity's earlier file of that name. */
  replacing?: string;
}

/**
 * Datasets made as a user makes them, through the gateway: the entity created under its championship, event,
 * session and car (entered in the event), and each file attached by the real upload flow (prepare
 * `POST /{Plural}/{id}/Attachments`, PUT to the signed URL, finalise with ServerAttachedFileState "2").
 */
export class UploadedDatasets {
  readonly client: PitwallClient;
  /** The credentials' headers, for a request made by hand. */
  readonly headers: { ApiKey: string; AccountId: string };
  private chain: Promise<{ eventId: string; sessionId: string }> | undefined;
  private readonly types = new Map<string, string>();
  private readonly owners = new Map<string, Chain>();

  constructor(baseUrl: string, credentials: { apiKey: string; accountId: string }) {
    this.client = new PitwallClient({ baseUrl, ...credentials });
    this.headers = { ApiKey: credentials.apiKey, AccountId: credentials.accountId };
  }

  /** A new entity of a type with data file access (on a car of its own, entered in the shared event). */
  async entity(type = 'RunSheets'): Promise<string> {
    const { eventId, sessionId } = await (this.chain ??= this.event());
    const carId = await this.create('/Cars', {}, `Car ${randomUUID().slice(0, 8)}`);
    await this.create('/EventCars', { eventId, carId }, 'Entry');
    const parents = PARENTS[type];
    if (!parents) throw new Error(`${type} has no data file access`);
    const id = await this.create(`/${type}`, parents({ eventId, sessionId, carId }), `${type} ${randomUUID().slice(0, 8)}`);
    this.types.set(id, type);
    this.owners.set(id, { eventId, sessionId, carId });
    return id;
  }

  /** The event, session and car an entity this helper made is under (its car is its own). */
  ownersOf(entityId: string): Chain {
    const owners = this.owners.get(entityId);
    if (!owners) throw new Error(`entity ${entityId} was not made by this helper`);
    return owners;
  }

  /** A new entity (of `options.type`, RunSheets by default) with one file attached in `group`; returns the entity's id. */
  async entityWithFile(group: string, fileName: string, bytes: Uint8Array, { type, ...options }: AttachOptions & { type?: string } = {}): Promise<string> {
    const id = await this.entity(type);
    await this.attach(id, group, fileName, bytes, options);
    return id;
  }

  /** Attaches `bytes` to the entity in `group` through the upload flow; returns the attached file's id (state 2). */
  async attach(entityId: string, group: string, fileName: string, bytes: Uint8Array, options: AttachOptions = {}): Promise<string> {
    const body = {
      FileName: fileName,
      AttachedFileGroupName: group,
      UseCompression: options.compressed === true || options.frame === true,
      ...(options.replacing ? { CustomPropertyAttachedFileName: options.replacing, IfSingleOverwriteExisting: true } : {}),
    };
    const uploaded = await this.client.uploadAttachment(this.typeOf(entityId), entityId, options.compressed ? await compressLz4(bytes) : bytes, body);
    return ok(uploaded, `attach ${fileName}`).Id;
  }

  /** Prepares an attached file and stops there: the record stays Pending (state 0), no bytes. */
  async prepareOnly(entityId: string, group: string, fileName: string): Promise<string> {
    const prepared = await this.client.request<{ AttachedFileId: string }>('POST', `/${this.typeOf(entityId)}/${entityId}/Attachments`, { body: { FileName: fileName, AttachedFileGroupName: group } });
    return ok(prepared, `prepare ${fileName}`).AttachedFileId;
  }

  /** DELETE of one attached file (204). */
  async detach(entityId: string, attachedFileId: string): Promise<void> {
    done(await this.client.request('DELETE', `/${this.typeOf(entityId)}/${entityId}/Attachments/${attachedFileId}`), 'delete attachment');
  }

  /** DELETE of the entity itself (its attached files with it). */
  async remove(entityId: string): Promise<void> {
    done(await this.client.request('DELETE', `/${this.typeOf(entityId)}/${entityId}`), 'delete entity');
  }

  private typeOf(entityId: string): string {
    const type = this.types.get(entityId);
    if (!type) throw new Error(`entity ${entityId} was not made by this helper`);
    return type;
  }

  private async event(): Promise<{ eventId: string; sessionId: string }> {
    const championshipId = await this.create('/Championships', {}, 'Data file championship');
    const eventId = await this.create('/Events', { championshipId }, 'Data file event');
    const sessionId = await this.create('/Sessions', { eventId }, 'Data file session');
    return { eventId, sessionId };
  }

  private async create(path: string, query: Record<string, string>, name: string): Promise<string> {
    const created = await this.client.request<{ Id: string }>('POST', path, { query, body: { ParameterUpdates: [{ Name: 'Name', Value: name }] } });
    return ok(created, `create ${path}`).Id;
  }
}

function ok<T>(result: ClientResult<T>, what: string): T {
  if (!result.success || result.returnValue === null) throw new Error(`${what}: ${result.statusCode} ${result.message}`);
  return result.returnValue;
}

function done(result: ClientResult<unknown>, what: string): void {
  if (!result.success) throw new Error(`${what}: ${result.statusCode} ${result.message}`);
}
