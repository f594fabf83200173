import type { Operation } from '@pitwall/contracts';
import { permit } from '../../src/entry-points/http/authentication';

/** What `permit` makes of a caller of `role` (none: not a member) on an operation needing `permission`: passed, or the refusal's status and detail. */
function outcome(permission: Operation['permission'], role: 'admin' | 'editor' | 'reader' | undefined, nonMember?: 'not-found'): string {
  const op = { permission, ...(nonMember ? { nonMember } : {}) } as Operation;
  const req = { caller: { role }, baseUrl: '/Things', path: '/1' };
  try {
    let passed = false;
    permit(op)(req as never, {} as never, () => void (passed = true));
    return passed ? 'passed' : 'neither passed nor refused';
  } catch (err) {
    const e = err as { status: number; detail?: string; message: string };
    return `${e.status}: ${e.detail ?? e.message}`;
  }
}

describe('who may call an operation (wire.md §1)', () => {
  test.each([
    ['read', 'reader', 'passed'],
    ['write', 'reader', '403: Your role in this account is reader: it may read, not write'],
    ['write', 'editor', 'passed'],
    // An admin-only operation (the simulation callbacks, read and write alike) tells a reader and an editor it needs admin.
    ['admin', 'reader', '403: Your role in this account is reader: this needs admin'],
    ['admin', 'editor', '403: Your role in this account is editor: this needs admin'],
    ['admin', 'admin', 'passed'],
    ['admin', undefined, '403: The API key is not a member of this account'],
    ['read', undefined, '403: The API key is not a member of this account'],
  ] as const)('when a %s operation is called by a caller whose role is %s, then it is %s', (permission, role, expected) => {
    expect(outcome(permission, role)).toBe(expected);
  });

  test('when a non-member calls an operation on an entity, then it is a 404, as if the entity did not exist', () => {
    expect(outcome('read', undefined, 'not-found')).toBe('404: /Things/1 is not in this account');
  });
});
