import type { CallerContext, SimulationConnection } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
import type { SimulationRepository } from '../data-access/simulation-repository';
import { originOf } from './credential-binding';
import type { SecretBox } from './secret-box';
import type { SimulationWrites, WriteRequest } from './simulation-writes';

const EMPTY = { encode: () => ({ body: null, headers: {} }), decode: () => null };

/**
 * Creates or replaces the account's connection, sealed (AES-256-GCM), bound to the origin of the `baseUrl` it names
 * (none: sent nowhere); admins only, as the gateway also checks.
 */
export async function putConnection(deps: { repository: SimulationRepository; secrets: SecretBox; writes: SimulationWrites }, caller: CallerContext, connection: SimulationConnection, request: WriteRequest): Promise<null> {
  if (caller.role !== 'admin') throw AppError.forbidden(`Your role in this account is ${caller.role}: only an admin sets the connection to the external simulation system`);
  return deps.writes.once(request, caller.accountId, EMPTY, async (client) => {
    const { baseUrl, ...credentials } = connection;
    await deps.repository.putConnection(client, caller.accountId, deps.secrets.seal(credentials), baseUrl ? originOf(baseUrl) : null);
    return null;
  });
}
