// The contract's rules without its zod schemas (`@shortlinks/contract/rules`): limits, slugs, text,
// public hosts, UTM keys and units of time. Browser bundles that only need these (the extension, the
// UI components) import this entry and carry no zod; Plasmo's Parcel also mis-bundles zod 4's
// namespace re-export, which broke every extension page (docs/extension.md, *Building*).
export * from './country-codes.ts';
export * from './import-rules.ts';
export * from './limits.ts';
export * from './public-host.ts';
export * from './qr-rules.ts';
export * from './slug.ts';
export * from './special-use-names.ts';
export * from './text-rules.ts';
export * from './time.ts';
export * from './utm-keys.ts';
export * from './webhook-events.ts';
