import type { ClickGroup } from './click-batch.ts';

/** The groups in order, cut into chunks of at most `groupsPerChunk` groups and (but for a lone group) `clicksPerChunk` clicks. */
export function chunksOf<Group extends Pick<ClickGroup, 'clicks'>>(
  groups: readonly Group[],
  groupsPerChunk: number,
  clicksPerChunk: number,
): Group[][] {
  const chunks: Group[][] = [];
  let chunk: Group[] = [];
  let clicks = 0;
  for (const group of groups) {
    if (chunk.length > 0 && (chunk.length >= groupsPerChunk || clicks + group.clicks > clicksPerChunk)) {
      chunks.push(chunk);
      chunk = [];
      clicks = 0;
    }
    chunk.push(group);
    clicks += group.clicks;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
