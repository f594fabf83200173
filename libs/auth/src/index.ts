export {
  AuthStore,
  AUTH_CACHE_PREFIX,
  AUTH_NEAR_PREFIXES,
  ROLES,
  isRole,
  DEMO_ACCOUNT_ID,
  DEMO_USER_ID,
  type Role,
  type Principal,
  type AccountSummary,
  type AccountRecord,
  type UserRecord,
  type ApiKeyRecord,
  type DemoAccount,
  type AuthStoreOptions,
} from './auth-store';
export { AUTH_SCHEMA, authMigrations } from './migrations';
export { isApiKey, hashApiKey } from './api-key';
