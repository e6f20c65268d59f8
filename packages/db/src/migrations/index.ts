import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial.ts';
import { Migration20261122010000_clicks } from './Migration20261122010000_clicks.ts';
import { Migration20261122020000_click_groups } from './Migration20261122020000_click_groups.ts';
import { Migration20261122100000_denylist } from './Migration20261122100000_denylist.ts';
import { Migration20261122100100_api_key_prefix } from './Migration20261122100100_api_key_prefix.ts';
import { Migration20261122110000_click_statistics } from './Migration20261122110000_click_statistics.ts';
import { Migration20261124120000_denylist_prefix_authority } from './Migration20261124120000_denylist_prefix_authority.ts';
import { Migration20261124130000_tag_links_fingerprint } from './Migration20261124130000_tag_links_fingerprint.ts';
import { Migration20261125090000_link_search } from './Migration20261125090000_link_search.ts';
import { Migration20261125100000_account_api_rate_limit } from './Migration20261125100000_account_api_rate_limit.ts';
import { Migration20261126080000_link_searched_text } from './Migration20261126080000_link_searched_text.ts';
import { Migration20261127090000_account_links_changes } from './Migration20261127090000_account_links_changes.ts';
import { Migration20261127100000_link_slug_changes } from './Migration20261127100000_link_slug_changes.ts';
import { Migration20261127112800_domains } from './Migration20261127112800_domains.ts';

/** Every migration in order. Listed explicitly so no file-system discovery is needed at run time. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261122010000_clicks', class: Migration20261122010000_clicks },
  { name: 'Migration20261122020000_click_groups', class: Migration20261122020000_click_groups },
  { name: 'Migration20261122100000_denylist', class: Migration20261122100000_denylist },
  { name: 'Migration20261122100100_api_key_prefix', class: Migration20261122100100_api_key_prefix },
  { name: 'Migration20261122110000_click_statistics', class: Migration20261122110000_click_statistics },
  { name: 'Migration20261124120000_denylist_prefix_authority', class: Migration20261124120000_denylist_prefix_authority },
  { name: 'Migration20261124130000_tag_links_fingerprint', class: Migration20261124130000_tag_links_fingerprint },
  { name: 'Migration20261125090000_link_search', class: Migration20261125090000_link_search },
  { name: 'Migration20261125100000_account_api_rate_limit', class: Migration20261125100000_account_api_rate_limit },
  { name: 'Migration20261126080000_link_searched_text', class: Migration20261126080000_link_searched_text },
  { name: 'Migration20261127090000_account_links_changes', class: Migration20261127090000_account_links_changes },
  { name: 'Migration20261127100000_link_slug_changes', class: Migration20261127100000_link_slug_changes },
  { name: 'Migration20261127112800_domains', class: Migration20261127112800_domains },
];
