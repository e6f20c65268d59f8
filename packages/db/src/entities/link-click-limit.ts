import { defineEntity, p } from '@mikro-orm/core';

/**
 * How many visits a link with `max_clicks` has redirected: taken one at a time by an atomic
 * conditional update, so no number of instances ever redirects more than the limit
 * (docs/redirects.md, "Click limits"). Links without a limit have no row.
 */
export const LinkClickLimit = defineEntity({
  name: 'LinkClickLimit',
  tableName: 'link_click_limit',
  properties: {
    link_id: p.text().primary(),
    redirected: p.bigint('number').defaultRaw('0'),
  },
});
