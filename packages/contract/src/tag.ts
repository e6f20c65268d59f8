import { z } from 'zod';
import { tagColorField, tagNameField } from './fields.ts';

export const TagSchema = z
  .object({
    id: z.string().meta({ description: 'Starts with `tag_`.' }),
    name: z.string(),
    color: tagColorField,
    link_count: z.number().meta({ description: 'Live links carrying the tag.' }),
  })
  .meta({ id: 'Tag', example: { id: 'tag_4hG7Qx2LpZ', name: 'Campaigns', color: 'indigo', link_count: 3 } });

export const CreateTagBodySchema = z.strictObject({
  name: tagNameField,
  color: tagColorField.optional(),
});

export const UpdateTagBodySchema = z.strictObject({
  name: tagNameField.optional(),
  color: tagColorField.optional(),
});

export const TagRefSchema = z.string().min(1).max(1024).meta({ example: 'tag_4hG7Qx2LpZ' });

export const TagListSchema = z.object({ tags: z.array(TagSchema), tag_limit: z.number().nullable() }).meta({ id: 'TagList' });

export type Tag = z.infer<typeof TagSchema>;
export type CreateTagBody = z.infer<typeof CreateTagBodySchema>;
export type UpdateTagBody = z.infer<typeof UpdateTagBodySchema>;
export type TagList = z.infer<typeof TagListSchema>;
