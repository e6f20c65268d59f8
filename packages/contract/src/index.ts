export * from './errors.ts';
export * from './fields.ts';
export * from './limits.ts';
export * from './link.ts';
export * from './slug.ts';
export * from './stats.ts';
export * from './tag.ts';
export * from './text-rules.ts';
