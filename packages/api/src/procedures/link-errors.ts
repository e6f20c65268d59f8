import type { ErrorCode } from '@shortlinks/contract';

/** What creating a link can answer (spec: "Link errors"); upsert the same. */
export const CREATE_ERRORS = [
  'LINK_LIMIT_REACHED',
  'PLAN_LIMIT_REACHED',
  'TAG_NOT_FOUND',
  'SLUG_TAKEN',
  'EXTERNAL_ID_TAKEN',
  'VALIDATION_ERROR',
  'SLUG_INVALID',
  'REPUTATION_UNAVAILABLE',
] as const satisfies readonly ErrorCode[];

/** What updating a link can answer (spec: PATCH /links/{id}). */
export const UPDATE_ERRORS = [
  'PLAN_LIMIT_REACHED',
  'LINK_NOT_FOUND',
  'TAG_NOT_FOUND',
  'VALIDATION_ERROR',
  'REPUTATION_UNAVAILABLE',
] as const satisfies readonly ErrorCode[];

export const DELETE_ERRORS = ['LINK_NOT_FOUND'] as const satisfies readonly ErrorCode[];
