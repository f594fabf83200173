import type { CallerContext, Role } from '@pitwall/contracts';

/** What the gateway knows about the caller after authentication. */
export interface AuthenticatedCaller {
  userId: string;
  keyId: string;
  /** The AccountId header, lower-cased; undefined only on routes that do not need it. */
  accountId?: string;
  /** The caller's role in that account; null when not a member. */
  role: Role | null;
}

/** The subset of the auth store the gateway needs (the real one lives in @pitwall/auth). */
export interface Authenticator {
  authenticate(apiKey: string): Promise<{ userId: string; keyId: string } | null>;
  roleFor(userId: string, accountId: string): Promise<Role | null>;
  /** Both of the above for a request that names its account (one cache round trip once the key is known). */
  callerFor(apiKey: string, accountId: string): Promise<{ principal: { userId: string; keyId: string }; role: Role | null } | null>;
  listAccounts(userId: string): Promise<{ Id: string; Name: string; Role: string }[]>;
}

export function callerContext(caller: AuthenticatedCaller): CallerContext {
  return { accountId: caller.accountId as string, userId: caller.userId, role: caller.role as Role };
}
