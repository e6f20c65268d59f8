import { describe, expect, test } from 'vitest';
import { embeddedMemoryFlags, embeddedMemorySettings } from './embedded-memory.ts';

const GiB = 1024 ** 3;

describe('the embedded cluster’s memory settings', () => {
  test('a quarter of the memory for shared_buffers, half for effective_cache_size', () => {
    expect(embeddedMemorySettings(4 * GiB)).toEqual({ sharedBuffersMiB: 1024, effectiveCacheSizeMiB: 2048 });
  });

  test('never less than PostgreSQL’s defaults on a small machine', () => {
    expect(embeddedMemorySettings(0.25 * GiB)).toEqual({ sharedBuffersMiB: 128, effectiveCacheSizeMiB: 512 });
  });

  test('shared_buffers at most 2 GB on a large machine, the rest left to the server and the kernel’s cache', () => {
    expect(embeddedMemorySettings(64 * GiB)).toEqual({ sharedBuffersMiB: 2048, effectiveCacheSizeMiB: 32768 });
  });

  test('given to postgres as flags', () => {
    expect(embeddedMemoryFlags({ sharedBuffersMiB: 512, effectiveCacheSizeMiB: 1024 })).toEqual([
      '-c',
      'shared_buffers=512MB',
      '-c',
      'effective_cache_size=1024MB',
    ]);
  });
});
