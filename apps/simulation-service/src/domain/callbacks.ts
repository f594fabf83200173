import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { CallerContext, SimulationCallbackCreated, SimulationCallbackRegistration, SimulationCallbacks, SimulationStatusChanged, SimulationStatusWebhook } from '@pitwall/contracts';
import type { RecordedReply, ReplyCodec } from '@pitwall/messaging';
import { AddressNotAllowed, type Egress } from '@pitwall/egress';
import { AppError } from '@pitwall/service-kit';
import type { CallbackRepository, WebhookMessage } from '../data-access/callback-repository';
import type { SecretBox } from './secret-box';
import type { SimulationWrites, WriteRequest } from './simulation-writes';

const SECRET_PREFIX = 'whsec_';

/** A new callback secret, Standard Webhooks style: `whsec_` and 24 random bytes in base64. */
export const newCallbackSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/**
 * The Standard Webhooks signature of one attempt: `v1,` and the base64 HMAC-SHA256, keyed with the secret's
 * base64-decoded bytes, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function signWebhook(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')}`;
}

/** The webhook message of a status event: its body is the Standard Webhooks envelope around the event. */
export function webhookMessage(event: SimulationStatusChanged): WebhookMessage {
  const body: SimulationStatusWebhook = { type: 'simulation.status', timestamp: event.occurredAt, data: event };
  return { accountId: event.accountId, webhookId: event.eventId, setupId: event.setupId, status: event.status, body: JSON.stringify(body) };
}

export interface CallbackDependencies {
  /** Judges a callback's URL before it is stored, as the deliveries will be judged at every connection. */
  egress: Egress;
  callbacks: CallbackRepository;
  secrets: SecretBox;
  writes: SimulationWrites;
  /** Callbacks one account may hold (MAX_SIMULATION_CALLBACKS; default DEFAULT_MAX_SIMULATION_CALLBACKS). */
  maxCallbacks?: number;
  /** Called once a callback's delete committed: its deliveries are removed afterwards, in batches. */
  callbackDeleted?: () => void;
}

/**
 * Callbacks one account may hold when the service is not told otherwise: every status step of every setup becomes one
 * delivery per callback, and each is a POST.
 */
export const DEFAULT_MAX_SIMULATION_CALLBACKS = 20;

const adminOnly = (caller: CallerContext, what: string): void => {
  if (caller.role !== 'admin') throw AppError.forbidden(`Your role in this account is ${caller.role}: only an admin ${what}`);
};

/**
 * The recorded reply of a registration keeps its secret sealed, so the inbox holds no secret in clear; a repeat of
 * the same command (same Idempotency-Key) gets the same callback and secret.
 */
const registrationCodec = (secrets: SecretBox): ReplyCodec<SimulationCallbackCreated> => ({
  encode: (created) => ({ body: Buffer.from(JSON.stringify({ ...created, secret: secrets.seal(created.secret).toString('base64') })), headers: {} }),
  decode: (reply: RecordedReply) => {
    const recorded = JSON.parse((reply.body as Buffer).toString('utf8')) as SimulationCallbackCreated;
    return { ...recorded, secret: secrets.open<string>(Buffer.from(recorded.secret, 'base64')) };
  },
});

/**
 * The sealed secret inside a registration's recorded reply, and that reply with it replaced, for the key rotation
 * (SecretRotation): null for a recorded reply that holds none (another command's).
 */
export const recordedRegistrationSecret = {
  sealedIn(body: Buffer): Buffer | null {
    try {
      const recorded = JSON.parse(body.toString('utf8')) as Partial<SimulationCallbackCreated> | null;
      return typeof recorded?.secret === 'string' && typeof recorded.id === 'string' ? Buffer.from(recorded.secret, 'base64') : null;
    } catch {
      return null;
    }
  },
  withSealed(body: Buffer, sealed: Buffer): Buffer {
    return Buffer.from(JSON.stringify({ ...(JSON.parse(body.toString('utf8')) as SimulationCallbackCreated), secret: sealed.toString('base64') }));
  },
};

const EMPTY: ReplyCodec<null> = { encode: () => ({ body: null, headers: {} }), decode: () => null };

/** Registers a callback of the caller's account; the answer carries its secret, which is never shown again. */
export async function registerCallback(deps: CallbackDependencies, caller: CallerContext, registration: SimulationCallbackRegistration, request: WriteRequest): Promise<SimulationCallbackCreated> {
  adminOnly(caller, 'registers simulation callbacks');
  const codec = registrationCodec(deps.secrets);
  // A repeat answers the first answer, whatever the host resolves to now.
  const earlier = await deps.writes.recorded(request, caller.accountId, codec);
  if (earlier) return earlier;
  try {
    await deps.egress.checkDestination(registration.url);
  } catch (err) {
    if (!(err instanceof AddressNotAllowed)) throw err;
    // Named as the HTTP body names it, as the gateway's own checks of the body do.
    throw AppError.badRequest('The callback URL points where this service may not send requests', { url: [err.message] });
  }
  const max = deps.maxCallbacks ?? DEFAULT_MAX_SIMULATION_CALLBACKS;
  return deps.writes.once(request, caller.accountId, codec, async (client) => {
    // Counted under the account's lock, so two registrations at once cannot both take the last place.
    const held = await deps.callbacks.countForUpdate(client, caller.accountId);
    if (held >= max) throw new AppError(409, `The account already has ${held} simulation callbacks, the most it may hold (MAX_SIMULATION_CALLBACKS is ${max}): delete one first`);
    const secret = newCallbackSecret();
    const callback = { id: randomUUID(), accountId: caller.accountId, url: registration.url, description: registration.description ?? null, createdAt: new Date() };
    await deps.callbacks.insert(client, { ...callback, sealedSecret: deps.secrets.seal(secret) });
    return { id: callback.id, url: callback.url, description: callback.description, createdAt: callback.createdAt.toISOString(), secret };
  });
}

export async function listCallbacks(deps: CallbackDependencies, caller: CallerContext): Promise<SimulationCallbacks> {
  adminOnly(caller, 'reads the simulation callbacks');
  return { callbacks: await deps.callbacks.list(caller.accountId) };
}

export async function deleteCallback(deps: CallbackDependencies, caller: CallerContext, id: string, request: WriteRequest): Promise<null> {
  adminOnly(caller, 'deletes simulation callbacks');
  const deleted = await deps.writes.once(request, caller.accountId, EMPTY, async (client) => {
    if (!(await deps.callbacks.delete(client, caller.accountId, id.toLowerCase()))) throw AppError.notFound(`Callback ${id} was not found in the account`);
    return null;
  });
  deps.callbackDeleted?.();
  return deleted;
}
