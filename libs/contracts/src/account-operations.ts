import { z } from 'zod';
import { defineOperation, jsonResponse, type Operation } from './operation-model';
import { AccountSummary } from './wire';

/** Operations on the caller's accounts: answered by the gateway from its auth store. */
export const ACCOUNT_OPERATIONS: Operation[] = [
  defineOperation({
    operationId: 'GetAllAccounts',
    method: 'get',
    path: '/Accounts/GetAll',
    tags: ['Accounts'],
    summary: "The caller's accounts (AccountId header may be empty here)",
    permission: 'none',
    nonMember: 'forbidden',
    response: jsonResponse(200, z.array(AccountSummary), 'Accounts'),
    target: { gateway: 'listAccounts' },
    client: [{ name: 'getAllAccounts', returns: "{ Id: string; Name: string; Role: 'reader' | 'editor' | 'admin' }[]" }],
  }),
];
