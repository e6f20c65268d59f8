import { defineConfig } from 'tsdown';

/**
 * The published package: ESM and CommonJS JavaScript, each with one bundled declaration file, so
 * it works in a project with `"type": "module"` and in one made by a bare `npm init -y` (which
 * `require`s). The API's schemas
 * (@shortlinks/contract, a devDependency, so bundled) are inlined, so nothing unpublished is needed by a user;
 * @trpc/client and zod (for the schema-derived types) stay dependencies.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  platform: 'neutral',
  target: 'es2022',
  // eager: declarations come from the TypeScript compiler over the whole program, which the
  // contract's inferred Zod types need.
  dts: { eager: true },
  // The JavaScript is not minified and reads as its source does; maps would point at sources the
  // package does not ship (and rolldown would point the declarations at a map it does not write).
  sourcemap: false,
  clean: true,
});
