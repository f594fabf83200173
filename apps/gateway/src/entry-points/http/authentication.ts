import type { RequestHandler } from 'express';
import type { UrlSigner } from '@pitwall/blob-store';
import { BLOB_URL_PATH, Guid, GUID_PATTERN, type Operation } from '@pitwall/contracts';
import { AppError, closeAfterAnswer } from '@pitwall/service-kit';
import type { AuthenticatedCaller, Authenticator } from '../../domain/caller';

declare module 'express-serve-static-core' {
  interface Request {
    caller: AuthenticatedCaller;
  }
}

const INVALID_KEY = 'The API key is not valid or has been revoked';

/** `ApiKey` → user (401 when missing or unknown); `AccountId` → role in that account (400 when missing or malformed). */
export function authenticate(auth: Authenticator, options: { accountOptional?: boolean } = {}): RequestHandler {
  return async (req, _res, next) => {
    const apiKey = req.header('ApiKey');
    if (!apiKey) throw AppError.unauthorized('The ApiKey header is missing');
    refuseMalformedKey(apiKey.trim());
    const accountHeader = req.header('AccountId')?.trim();
    if (accountHeader && GUID_PATTERN.test(accountHeader)) {
      // The usual request: key and role looked up together.
      const accountId = accountHeader.toLowerCase();
      const found = await auth.callerFor(apiKey.trim(), accountId);
      if (!found) throw AppError.unauthorized(INVALID_KEY);
      req.caller = { ...found.principal, accountId, role: found.role };
      req.logFields = { userId: found.principal.userId, keyId: found.principal.keyId, accountId };
      return next();
    }
    const identity = await auth.authenticate(apiKey.trim());
    if (!identity) throw AppError.unauthorized(INVALID_KEY);
    req.logFields = { userId: identity.userId, keyId: identity.keyId };
    if (!accountHeader) {
      if (options.accountOptional) {
        req.caller = { ...identity, role: null };
        return next();
      }
      throw AppError.badRequest('The AccountId header is missing', { AccountId: ['is required'] });
    }
    throw AppError.badRequest(`The AccountId header '${accountHeader.slice(0, 64)}' is not a GUID`, { AccountId: ['is not a GUID'] });
  };
}

/**
 * A key in a form no key has, said precisely (still a 401, and nothing about whether some key is valid): the header
 * sent twice (Node joins repeats with a comma), or a GUID with upper-case letters (keys are lower case, wire.md §1).
 */
function refuseMalformedKey(key: string): void {
  if (key.includes(',')) throw AppError.unauthorized('The ApiKey header came more than once (or holds a comma): send one key, once');
  if (GUID_PATTERN.test(key) && key !== key.toLowerCase()) throw AppError.unauthorized('The API key has upper-case letters: keys are lower-case GUIDs, sent as they were issued');
}

/**
 * Membership and role checks (wire.md §1): a non-member sees entities as missing (404) and is refused
 * account-wide lists and searches (403); a reader may not write (403).
 */
export function requireMember(scope: 'entity' | 'account', write = false): RequestHandler {
  return (req, _res, next) => {
    const { role } = req.caller;
    if (!role) {
      if (scope === 'entity') throw AppError.notFound(`${req.baseUrl}${req.path === '/' ? '' : req.path} is not in this account`);
      throw AppError.forbidden('The API key is not a member of this account');
    }
    if (write && role === 'reader') throw AppError.forbidden('Your role in this account is reader: it may read, not write');
    next();
  };
}

/** Who may call an operation: its API key and account (`authenticate`), or its signed URL (`permission: 'signature'`). */
export function authenticateFor(op: Operation, deps: { auth: Authenticator; signer?: UrlSigner }): RequestHandler {
  if (op.permission === 'signature') {
    // A gateway built without attached file storage (some tests) still has the route, answering that it is not set up.
    if (!deps.signer) return () => {
      throw AppError.unavailable(`${op.operationId}: this gateway has no URL signer and blob store configured`);
    };
    return verifySignature(deps.signer);
  }
  return authenticate(deps.auth, { accountOptional: op.permission === 'none' });
}

const SIGNATURE_FAULTS = {
  missing: 'This URL is not signed: use the URL the API answered with',
  expired: 'This signed URL has expired: ask the API for a new one',
  invalid: 'The signature of this URL is not valid',
} as const;

/**
 * A signed URL instead of an API key: HMAC-SHA256 over the method, the path, the attached file id and the expiry.
 * Refused with 403 before any body is read; a reused upload URL is refused by the record's state (the handler).
 */
function verifySignature(signer: UrlSigner): RequestHandler {
  return (req, res, next) => {
    const attachedFileId = String(req.params['attachedFileId'] ?? '').toLowerCase();
    const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const fault =
      Guid.safeParse(attachedFileId).success && (method === 'GET' || method === 'PUT')
        ? signer.verify({ method, path: `${BLOB_URL_PATH}/${attachedFileId}`, attachedFileId }, one(req.query['expires']), one(req.query['sig']))
        : 'invalid';
    if (fault) {
      // A refused upload's body is never read: the connection is not reused after the answer.
      if (req.method === 'PUT') closeAfterAnswer(req, res);
      throw AppError.forbidden(SIGNATURE_FAULTS[fault]);
    }
    next();
  };
}

/** The role an operation's `permission` needs in the account, once the caller is known. */
export function permit(op: Operation): RequestHandler {
  const scope = op.nonMember === 'not-found' ? 'entity' : 'account';
  switch (op.permission) {
    case 'none':
    case 'signature':
      return (_req, _res, next) => next();
    case 'read':
      return requireMember(scope);
    case 'write':
      return requireMember(scope, true);
    case 'admin': {
      // A member first (a non-member is refused as on any read), then an admin whatever the method: a reader asking an
      // admin-only read is told it needs admin, not that it may not write.
      const member = requireMember(scope);
      return (req, res, next) =>
        member(req, res, () => {
          if (req.caller.role !== 'admin') throw AppError.forbidden(`Your role in this account is ${req.caller.role}: this needs admin`);
          next();
        });
    }
  }
}
