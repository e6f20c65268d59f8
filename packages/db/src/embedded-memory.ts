import { totalmem } from 'node:os';

const MiB = 1024 * 1024;

/**
 * The embedded cluster's memory settings, from the memory the process may use (the machine's, or
 * its container's limit when lower). PostgreSQL's own default `shared_buffers` is 128 MB, made for
 * any machine; at a million links the list's tables and indexes are about 800 MB, and a broad
 * search read past that from the kernel's cache, a copy per 8 kB page, took three times as long
 * (docs/performance.md, bench:list). So, as PostgreSQL's tuning guide suggests for a dedicated
 * server: a quarter of the memory for shared_buffers (at least the default, at most 2 GB, since the
 * server process and the kernel's cache share the machine), and `effective_cache_size`, which only
 * informs the planner, at half of it.
 */
export function embeddedMemorySettings(memoryBytes = usableMemory()): { sharedBuffersMiB: number; effectiveCacheSizeMiB: number } {
  const memoryMiB = Math.floor(memoryBytes / MiB);
  return {
    sharedBuffersMiB: Math.min(2048, Math.max(128, Math.floor(memoryMiB / 4))),
    effectiveCacheSizeMiB: Math.max(512, Math.floor(memoryMiB / 2)),
  };
}

/** The machine's memory, or the container's limit when one is set and lower (0 means none). */
function usableMemory(): number {
  const limit = process.constrainedMemory();
  return limit > 0 && limit < totalmem() ? limit : totalmem();
}

/** The settings as `postgres` command-line flags. */
export function embeddedMemoryFlags(settings = embeddedMemorySettings()): string[] {
  return ['-c', `shared_buffers=${settings.sharedBuffersMiB}MB`, '-c', `effective_cache_size=${settings.effectiveCacheSizeMiB}MB`];
}
