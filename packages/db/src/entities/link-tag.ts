import { defineEntity, p } from '@mikro-orm/core';
import { Link } from './link.ts';
import { Tag } from './tag.ts';

/** Which tags a link carries. Rows go when either side is deleted. */
export const LinkTag = defineEntity({
  name: 'LinkTag',
  tableName: 'link_tag',
  // (tag, link): a tag filter's total is counted in the index alone.
  indexes: [{ name: 'link_tag_tag_link_idx', properties: ['tag', 'link'] }],
  properties: {
    link: () => p.manyToOne(Link).primary().fieldName('link_id').columnType('text').deleteRule('cascade').updateRule('cascade'),
    tag: () => p.manyToOne(Tag).primary().fieldName('tag_id').columnType('text').deleteRule('cascade').updateRule('cascade'),
  },
});
