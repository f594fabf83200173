import type { RequestHandler } from 'express';
import { GUID_PATTERN } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
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
    const accountHeader = req.header('AccountId')?.trim();
    if (accountHeader && GUID_PATTERN.test(accountHeader)) {
      // The usual request: key and role looked up together.
      const accountId = accountHeader.toLowerCase();
      const found = await auth.callerFor(apiKey.trim(), accountId);
      if (!found) throw AppError.unauthorized(INVALID_KEY);
      req.caller = { ...found.principal, accountId, role: found.role };
      return next();
    }
    const identity = await auth.authenticate(apiKey.trim());
    if (!identity) throw AppError.unauthorized(INVALID_KEY);
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
