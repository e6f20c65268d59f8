import { config } from 'zod';

/**
 * Imported first. The shared contract brings zod into the bundle, and zod probes whether it may
 * compile validators with `new Function`: under the dashboard's CSP (no 'unsafe-eval') that probe
 * is a violation the browser reports. Jitless, zod never tries.
 */
config({ jitless: true });
