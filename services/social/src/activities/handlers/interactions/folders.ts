/** Folder trees (bookmark folders, page folders): where an item may be moved to. */
import { BadRequest } from '@agora/common/errors';
import type { Lean, LooseStore } from './targets';

/**
 * A move of `self` under `parentId` must land in a live Folder of the same owner, never inside
 * itself or its own descendants, and no deeper than `maxDepth` levels.
 */
export async function assertFolderMove(
  store: LooseStore,
  self: Lean,
  parentId: string,
  opts: { field: string; parentField: 'parentFolder' | 'parentId'; maxDepth: number },
): Promise<void> {
  const { field, parentField, maxDepth } = opts;
  if (parentId === self.id) throw new BadRequest(`${field}: an item cannot be inside itself`);
  const parent = await store.liveById(parentId);
  if (!parent || parent.type !== 'Folder') throw new BadRequest(`${field}: folder not found`);
  if (parent.actorId !== self.actorId) throw new BadRequest(`${field}: the folder belongs to someone else`);
  let depth = 1;
  let node: Lean | null = parent;
  for (let up = parent[parentField]; typeof up === 'string' && up; up = node?.[parentField]) {
    if (up === self.id) throw new BadRequest(`${field}: an item cannot be moved inside its own descendants`);
    depth += 1;
    if (depth >= maxDepth) throw new BadRequest(`${field}: folders nest at most ${maxDepth} levels deep`);
    node = await store.byId(up);
  }
}

/** Ids of every live descendant of a folder owned by `ownerId` (bounded walk, cycle-proof). */
export async function descendantsOf(
  store: LooseStore,
  folderId: string,
  ownerId: string,
  parentField: 'parentFolder' | 'parentId',
): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set([folderId]);
  let frontier = [folderId];
  for (let level = 0; frontier.length && level < 20; level++) {
    const children = await store.childrenIn(parentField, frontier, ownerId);
    const fresh = children.filter((c) => !seen.has(c.id));
    for (const c of fresh) {
      seen.add(c.id);
      out.push(c.id);
    }
    frontier = fresh.filter((c) => c.type === 'Folder').map((c) => c.id);
  }
  return out;
}
