import { createHash } from 'node:crypto';
import { AccountMembersEvent, entityType, type EntityChangedEvent } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
import { attachedFileRepository } from '../data-access/attached-file-repository';
import { entityRepository as repo } from '../data-access/entity-repository';
import type { EntityRow } from '../data-access/entity-row';
import { memberMirrorRepository } from '../data-access/member-mirror-repository';
import { changedNames, entityChanged } from './entity-events';
import type { ParameterValue } from './parameters';
import { nextModifiedTime, write, type StoreContext } from './store-context';

const USERS = 'Users';

/**
 * The id of a member's Users entity: the same for one user in one account on every replay (an entity id is unique
 * across accounts, so a user who belongs to two accounts has one Users entity in each, with two ids). UUID version 5
 * layout over SHA-1 of the two ids.
 */
export function userEntityId(accountId: string, userId: string): string {
  const hash = createHash('sha1').update(`pitwall-user:${accountId.toLowerCase()}:${userId.toLowerCase()}`).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Makes the account's Users entities the members of a snapshot from the auth outbox: one Users entity per member
 * (Name, Email), created, updated or deleted (with its attached files) so the two agree. A snapshot no newer than the
 * last one applied to the account (a redelivery, or a left-over published after a later change) changes nothing.
 * Writes through the ordinary write path: the account's version is bumped (cached reads end) and entity events go out.
 */
export async function mirrorMembers(ctx: StoreContext, payload: unknown): Promise<{ applied: boolean }> {
  const parsed = AccountMembersEvent.safeParse(payload);
  if (!parsed.success) throw AppError.badRequest(`Not an account members event: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  const snapshot = parsed.data;
  const accountId = snapshot.accountId.toLowerCase();
  const type = entityType(USERS);
  if (!type) throw new Error('the registry has no Users type');
  const released = await write(ctx, accountId, async (q) => {
    // A snapshot no newer than the last one applied changes nothing.
    if (!(await memberMirrorRepository.advance(q, accountId, snapshot.version))) return { result: null, events: [] };
    const existing = new Map((await repo.listForUpdate(q, accountId, USERS)).map((row) => [row.id, row]));
    const events: EntityChangedEvent[] = [];
    const now = new Date();
    const toInsert: EntityRow[] = [];
    const toUpdate: { id: string; parameters: Record<string, ParameterValue>; modifiedAt: Date }[] = [];
    for (const member of snapshot.members) {
      const id = userEntityId(accountId, member.userId);
      const parameters: Record<string, ParameterValue> = { Name: member.name, Email: member.email };
      const row = existing.get(id);
      existing.delete(id);
      if (!row) {
        const created: EntityRow = { id, account_id: accountId, type: USERS, parent_id: null, parent2_id: null, position: 0, parameters, created_at: now, modified_at: now };
        toInsert.push(created);
        events.push(entityChanged('created', created, type, Object.keys(parameters)));
        continue;
      }
      const changed = changedNames(row.parameters, { ...row.parameters, ...parameters });
      if (changed.length === 0) continue;
      const next = { id, parameters: { ...row.parameters, ...parameters }, modifiedAt: nextModifiedTime(row.modified_at) };
      toUpdate.push(next);
      events.push(entityChanged('updated', { ...row, parameters: next.parameters, modified_at: next.modifiedAt }, type, changed));
    }
    await repo.insertMany(q, toInsert);
    await repo.updateParametersMany(q, toUpdate);
    // Those left are no longer members: they go with their attached files (whose blobs are released after the commit).
    const gone = [...existing.values()];
    const blobKeys = gone.length ? await attachedFileRepository.blobKeysOf(q, gone.map((r) => r.id)) : [];
    await repo.deleteMany(q, gone.map((r) => r.id));
    for (const row of gone) events.push(entityChanged('deleted', row, type, []));
    return { result: blobKeys, events };
  });
  if (released) await ctx.releaseBlobs(released);
  return { applied: released !== null };
}
