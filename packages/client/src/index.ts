export type { ErrorCode } from '@shortlinks/contract';
export { type ClientOptions, createClient, type ShortlinksClient } from './client.ts';
export { type ClientErrorCode, ShortlinksError, toShortlinksError } from './errors.ts';
export { PROCEDURE_SCOPES, type ProcedureScopes, type Scope, type ScopeOf } from './scopes.ts';
export type * from './types.ts';
