/**
 * Delete (behaviour-notes §4.3 and §2.5, fixed): owner or server admin (a user deletes only
 * themselves); soft delete with `deletedAt`/`deletedBy` and `type: 'Tombstone'` (users get
 * `active: false`); the side effects run once, for the request whose conditional update wins;
 * counters move by atomic `$inc` and never below 0; a deleted post leaves every timeline.
 */
import { withdrawAccount } from '@agora/common/cache';
import { parseId } from '@agora/common/db';
import { NotAuthorized, NotFound } from '@agora/common/errors';
import type { ActivityHandler, HandlerContext, HandlerResult } from '../../types';
import { clean, idString, parse } from '../../validate';
import { KIND_MODELS, kindAmong, storeOf, type Lean, type StoredKind } from './targets';
import { assertOwnerOrAdmin, loadForChange } from './owned';
import { bumpObject, bumpUser, moveReaction } from './counters';
import { descendantsOf } from './folders';
import { domainEvent } from '@agora/common/messaging';

const DELETABLE = ['post', 'reply', 'react', 'circle', 'page', 'bookmark', 'group', 'user'] as const;

export const del: ActivityHandler = async (ctx) => {
  const { svc, actor } = ctx;
  const targetId = parse(idString, ctx.activity.target, 'target');
  const kind = kindAmong(svc, targetId, DELETABLE, 'target');
  if (kind === 'user') return deleteUser(ctx, targetId);
  if (kind === 'react') return deleteReact(ctx, targetId);

  const doc = await loadForChange(ctx, kind, targetId, { includeDeleted: true });
  if (kind === 'circle') await assertCircleDeletable(ctx, doc);
  const store = storeOf(svc, kind);
  const tomb = { deletedAt: new Date(), deletedBy: actor.id, type: 'Tombstone' };
  // Re-deleting is harmless: only the request that flips `deletedAt` runs the side effects.
  const first = await softDelete(ctx, kind, targetId, tomb);
  if (first) await afterDelete(ctx, kind, doc, tomb);
  const objectType = KIND_MODELS[kind];
  return {
    result: clean(await store.byId(targetId)),
    objectId: targetId,
    objectType,
    target: targetId,
    events: first
      ? [
          domainEvent(`${kind}.deleted` as const, {
            objectId: targetId,
            objectType,
            actorId: actor.id,
            ownerId: doc.actorId ?? null,
          }),
        ]
      : [],
  };
};

/** Soft-deletes through the kind's store (posts leave every list; circles every membership). */
async function softDelete(
  { svc, actor }: HandlerContext,
  kind: StoredKind,
  id: string,
  tomb: { deletedAt: Date; deletedBy: string; type: string },
): Promise<boolean> {
  if (kind === 'post') return !!(await svc.stores.posts.softDeletePost(id, actor.id));
  if (kind === 'circle') return !!(await svc.stores.circles.softDeleteCircle(id, actor.id));
  return !!(await storeOf(svc, kind).softDelete(id, tomb));
}

async function afterDelete(
  ctx: HandlerContext,
  kind: StoredKind,
  doc: Lean,
  tomb: Record<string, unknown>,
): Promise<void> {
  const { svc } = ctx;
  const author = String(doc.actorId);
  // An object's files follow it (the GC removes their bytes).
  await svc.stores.files.deleteAttachedTo(doc.id);
  switch (kind) {
    case 'post':
      // PostsStore.softDeletePost moved the counter and took the post out of every list.
      return;
    case 'reply': {
      await bumpUser(svc, author, 'replyCount', -1);
      const root = String(doc.target);
      await bumpObject(svc, root, 'replyCount', -1);
      if (typeof doc.parent === 'string' && doc.parent !== root)
        await bumpObject(svc, doc.parent, 'replyCount', -1);
      return;
    }
    case 'bookmark':
      if (doc.type === 'Folder') {
        const store = svc.stores.bookmarks;
        const ids = await descendantsOf(storeOf(svc, 'bookmark'), doc.id, author, 'parentFolder');
        await store.tombstoneMany(ids, tomb);
      }
      return;
    case 'circle': {
      const members = (doc as { members?: Array<{ id?: unknown }> }).members ?? [];
      await svc.stores.timelines.dropCircle(
        doc.id,
        members.map((m) => String(m.id)),
      );
      return;
    }
    case 'page':
    case 'group':
    case 'react':
      return;
  }
}

/** A user's own Following and system circles, a group's circles and the server's role circles stay. */
async function assertCircleDeletable({ svc }: HandlerContext, circle: Lean): Promise<void> {
  const owner = String(circle.actorId);
  let kept = circle.type === 'System' || owner.startsWith('group:');
  if (!kept && parseId(owner).type === 'User') {
    const user = await svc.stores.users.findById(owner);
    kept = Object.values((user?.circles ?? {}) as Record<string, string>).includes(circle.id);
  }
  if (!kept)
    kept = [
      await svc.stores.settings.get<string>('adminCircle'),
      await svc.stores.settings.get<string>('modCircle'),
    ].includes(circle.id);
  if (kept) throw new NotAuthorized('This circle cannot be deleted');
}

async function deleteUser(ctx: HandlerContext, id: string): Promise<HandlerResult> {
  const { svc, actor } = ctx;
  const user = await svc.stores.users.findById(id);
  if (!user) throw new NotFound('User not found');
  if (user.id !== actor.id && !actor.isServerAdmin)
    throw new NotAuthorized('Only the user themselves or a server admin can delete an account');
  const deletedAt = new Date();
  const first = !!(await svc.stores.users.deactivate(id, actor.id));
  // Everything the account wrote leaves every listing, timeline and pull now, not at the next GC.
  if (first) await withdrawAccount(svc, id, actor.id, deletedAt);
  return {
    result: {
      id,
      type: 'Person',
      objectType: 'User',
      active: false,
      deletedAt: first ? deletedAt : user.deletedAt,
    },
    objectId: id,
    objectType: 'User',
    target: id,
    events: first ? [domainEvent('user.deleted', { userId: id, actorId: actor.id })] : [],
  };
}

/** Reactions are removed outright: the (actor, target) unique index must let the actor react again. */
async function deleteReact(ctx: HandlerContext, id: string): Promise<HandlerResult> {
  const { svc, actor } = ctx;
  const doc = await svc.stores.reacts.byId(id);
  if (!doc) throw new NotFound('Not found');
  assertOwnerOrAdmin(ctx, doc.actorId);
  if (await svc.stores.reacts.removeById(id)) {
    await bumpUser(svc, doc.actorId, 'reactCount', -1);
    await moveReaction(svc, doc.target, { [doc.emoji]: -1 });
  }
  return {
    result: { ...clean(doc as unknown as Record<string, unknown>), type: 'Tombstone', deletedAt: new Date() },
    objectId: id,
    objectType: 'React',
    target: doc.target,
    events: [
      domainEvent('react.deleted', {
        objectId: id,
        objectType: 'React',
        actorId: actor.id,
        ownerId: doc.actorId,
        target: doc.target,
      }),
    ],
  };
}
