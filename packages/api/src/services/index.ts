import type { Orm } from '@shortlinks/db';
import { hostOf } from '../domain/destination-policy.ts';
import type { UrlReputation } from '../domain/reputation.ts';
import { AccountService } from './account-service.ts';
import { ApiKeyService } from './api-key-service.ts';
import { DestinationChecker } from './destinations.ts';
import { LinkService } from './link-service.ts';
import { TagService } from './tag-service.ts';

export interface ServiceOptions {
  orm: Orm;
  /** Origin of short links, e.g. https://sho.rt (no trailing slash). */
  shortDomain: string;
  reputation: UrlReputation;
}

/** Every domain service, built once per process. */
export interface Services {
  accounts: AccountService;
  apiKeys: ApiKeyService;
  links: LinkService;
  tags: TagService;
}

export function createServices({ orm, shortDomain, reputation }: ServiceOptions): Services {
  const origin = shortDomain.replace(/\/+$/, '');
  const destinations = new DestinationChecker(hostOf(origin), reputation);
  return {
    accounts: new AccountService(orm),
    apiKeys: new ApiKeyService(orm),
    links: new LinkService(orm, destinations, origin),
    tags: new TagService(orm),
  };
}
