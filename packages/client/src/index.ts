export type { AppRouter, RouterInputs, RouterOutputs } from '@shortlinks/api';
export type { ErrorCode, Link, LinkPage, Tag, TagList, UpsertedLink } from '@shortlinks/contract';
export { type ClientOptions, createClient, type ShortlinksClient } from './client.ts';
export { type ClientErrorCode, ShortlinksError, toShortlinksError } from './errors.ts';
