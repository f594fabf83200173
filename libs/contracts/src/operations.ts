import { ACCOUNT_OPERATIONS } from './account-operations';
import { attachmentOperations, BLOB_OPERATIONS } from './attachment-operations';
import { dataFileOperations } from './data-file-operations';
import { entityOperations } from './entity-operations';
import type { Operation } from './operation-model';
import { ENTITY_TYPES } from './registry';
import { SIMULATION_OPERATIONS } from './simulation-operations';
import { TIMING_OPERATIONS } from './timing-operations';

export type { BodyKind, BoundRequest, BusTarget, ClientMethod, GatewayTarget, HttpMethod, Operation, OperationResponse, Permission, ResponseKind } from './operation-model';
export { INCLUDE_PARAMETER, isBusTarget, pathParameterNames } from './operation-model';
export { BLOB_URL_PATH } from './attachment-operations';

/**
 * The operation table: every HTTP operation of the API, declared once. The gateway mounts its routes from it, the
 * OpenAPI document describes it, the client library's methods are generated from it, and each service's command
 * dispatch is checked against it. Each area declares its operations beside its contracts (the model and its
 * helpers: `operation-model.ts`). What a new endpoint touches, file by file: docs/contributing.md, "Adding an
 * operation".
 */
export const OPERATIONS: readonly Operation[] = [
  ...ACCOUNT_OPERATIONS,
  ...BLOB_OPERATIONS,
  ...ENTITY_TYPES.flatMap((type) => [...entityOperations(type), ...attachmentOperations(type), ...dataFileOperations(type)]),
  ...TIMING_OPERATIONS,
  ...SIMULATION_OPERATIONS,
];
