import type { CallerContext, SimulationConnection } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
import type { SimulationRepository } from '../data-access/simulation-repository';
import type { SecretBox } from './secret-box';

/** Creates or replaces the account's connection, sealed (AES-256-GCM); admins only, as the gateway also checks. */
export async function putConnection(repository: SimulationRepository, secrets: SecretBox, caller: CallerContext, connection: SimulationConnection): Promise<null> {
  if (caller.role !== 'admin') throw AppError.forbidden(`Your role in this account is ${caller.role}: only an admin sets the connection to the external simulation system`);
  await repository.putConnection(caller.accountId, secrets.seal(connection));
  return null;
}
