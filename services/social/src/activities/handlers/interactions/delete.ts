/**
 * Delete (behaviour-notes §4.3 and §2.5, fixed): owner or server admin (a user deletes only
 * themselves); soft delete with `deletedAt`/`deletedBy` and `type: 'Tombstone'` (users get
 * `active: false`); the side effects run once, for the request whose conditional update wins;
 * counters move by atomic `$inc` and never below 0; a deleted post leaves every timeline.
 */
import { STAMPS } from '@agora/common/cache';
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
  const { rt, actor } = ctx;
  const targetId = parse(idString, ctx.activity.target, 'target');
  const kind = kindAmong(rt, targetId, DELETABLE, 'target');
  if (kind === 'user') return deleteUser(ctx, targetId);
  if (kind === 'react') return deleteReact(ctx, targetId);

  const doc = await loadForChange(ctx, kind, targetId, { includeDeleted: true });
  if (kind === 'circle') await assertCircleDeletable(ctx, doc);
  const store = storeOf(rt, kind);
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
  { rt, actor }: HandlerContext,
  kind: StoredKind,
  id: string,
  tomb: { deletedAt: Date; deletedBy: string; type: string },
): Promise<boolean> {
  if (kind === 'post') return !!(await rt.repos.posts.softDeletePost(id, actor.id));
  if (kind === 'circle') return !!(await rt.repos.circles.softDeleteCircle(id, actor.id));
  return !!(await storeOf(rt, kind).softDelete(id, tomb));
}

async function afterDelete(
  ctx: HandlerContext,
  kind: StoredKind,
  doc: Lean,
  tomb: Record<string, unknown>,
): Promise<void> {
  const { rt } = ctx;
  const author = String(doc.actorId);
  // An object's files follow it (the GC removes their bytes).
  await rt.repos.files.deleteAttachedTo(doc.id);
  switch (kind) {
    case 'post':
      // PostsStore.softDeletePost moved the counter and took the post out of every list.
      return;
    case 'reply': {
      await bumpUser(rt, author, 'replyCount', -1);
      const root = String(doc.target);
      await bumpObject(rt, root, 'replyCount', -1);
      if (typeof doc.parent === 'string' && doc.parent !== root)
        await bumpObject(rt, doc.parent, 'replyCount', -1);
      return;
    }
    case 'bookmark':
      if (doc.type === 'Folder') {
        const store = rt.repos.bookmarks;
        const ids = await descendantsOf(storeOf(rt, 'bookmark'), doc.id, author, 'parentFolder');
        await store.tombstoneMany(ids, tomb);
      }
      return;
    case 'circle': {
      const members = (doc as { members?: Array<{ id?: unknown }> }).members ?? [];
      await rt.repos.timelines.dropCircle(
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
async function assertCircleDeletable({ rt }: HandlerContext, circle: Lean): Promise<void> {
  const owner = String(circle.actorId);
  let kept = circle.type === 'System' || owner.startsWith('group:');
  if (!kept && parseId(owner).type === 'User') {
    const user = await rt.repos.users.findById(owner);
    kept = Object.values((user?.circles ?? {}) as Record<string, string>).includes(circle.id);
  }
  if (!kept)
    kept = [
      await rt.repos.settings.get<string>('adminCircle'),
      await rt.repos.settings.get<string>('modCircle'),
    ].includes(circle.id);
  if (kept) throw new NotAuthorized('This circle cannot be deleted');
}

async function deleteUser(ctx: HandlerContext, id: string): Promise<HandlerResult> {
  const { rt, actor } = ctx;
  const user = await rt.repos.users.findById(id);
  if (!user) throw new NotFound('User not found');
  if (user.id !== actor.id && !actor.isServerAdmin)
    throw new NotAuthorized('Only the user themselves or a server admin can delete an account');
  const deletedAt = new Date();
  const first = !!(await rt.repos.users.deactivate(id, actor.id));
  // Everything the account wrote leaves every listing, timeline and pull now, not at the next GC.
  if (first) {
    const gone = await rt.repos.accountContent.withdraw(id, deletedAt, actor.id);
    await rt.stamps.bump([
      STAMPS.viewer(id),
      ...gone.postIds.map(STAMPS.post),
      ...gone.circleIds.map(STAMPS.circle),
    ]);
  }
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
  const { rt, actor } = ctx;
  const doc = await rt.repos.reacts.byId(id);
  if (!doc) throw new NotFound('Not found');
  assertOwnerOrAdmin(ctx, doc.actorId);
  if (await rt.repos.reacts.removeById(id)) {
    await bumpUser(rt, doc.actorId, 'reactCount', -1);
    await moveReaction(rt, doc.target, { [doc.emoji]: -1 });
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
