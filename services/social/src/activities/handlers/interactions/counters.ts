/**
 * Denormalised counters (behaviour-notes §2.5): single-document atomic `$inc`, never below 0.
 * A target's reaction state (`reactCount`, `reactSummary`) moves by the same `$inc`s, so no
 * recount scans the reactions; a post's cached views go stale with it.
 */
import { parseId, type ReactState, type UserCounter } from '@agora/common/db';
import type { SocialContext } from '../../../context';
import { KIND_MODELS, storeOf, type StoredKind } from './targets';

export async function bumpUser(
  ctx: SocialContext,
  userId: string,
  field: UserCounter,
  by: 1 | -1,
): Promise<void> {
  await ctx.stores.users.bumpCounter(userId, field, by);
}

/** Moves the reply counter of any stored object (by its id's kind) one step. */
export async function bumpObject(
  ctx: SocialContext,
  id: string,
  field: 'replyCount',
  by: 1 | -1,
): Promise<void> {
  const kind = kindOfId(id);
  if (!kind) return;
  if (kind === 'post') await ctx.stores.posts.bumpReplies(id, by);
  else await storeOf(ctx, kind).bump(id, field, by);
}

/** Moves a target's reaction state by {emoji: +1|-1} and returns it. */
export async function moveReaction(
  ctx: SocialContext,
  targetId: string,
  delta: Record<string, number>,
): Promise<ReactState> {
  const kind = kindOfId(targetId);
  if (!kind || kind === 'react') return { reactCount: 0, reactSummary: {} };
  const state = await storeOf(ctx, kind).reactDelta(targetId, delta);
  if (kind === 'post') await ctx.stores.posts.touchById(targetId);
  return state;
}

export type { ReactState };

function kindOfId(id: string): StoredKind | undefined {
  const p = parseId(id);
  return p.type === 'Object' && p.kind && p.kind in KIND_MODELS ? (p.kind as StoredKind) : undefined;
}
