/**
 * /admin/posts (spec 4.5): every post for moderation; server announcements (owned by the server
 * actor) created and edited here. A soft delete takes the post out of every timeline (the
 * reference left it in feeds), a restore puts it back, a full delete also removes its timeline
 * rows, replies and reactions. Announcements fan out and notify like any post.
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { BadRequest } from '@agora/common/errors';
import { newPost, postChanges, postInput, postPatchInput } from '@agora/common/content';
import { domainEvent } from '@agora/common/messaging';
import { idString } from '@agora/common/validation';
import { mintId } from '@agora/common/db';
import type { AuthUser } from '@agora/common/http';
import { crudRouter, type Row } from '../content/crud';
import {
  assertNotAuthorDeleted,
  assertServerOwned,
  parse,
  serverActor,
  serverAudience,
  serverCapability,
  serverAudiencePatch,
  requirePatchable,
} from '../content/shared';

/** Server announcements are notes and articles. */
const TYPES = ['Note', 'Article'] as const;

export const listQuery = z.object({
  visibility: z.enum(['all', 'default']).optional(),
  type: z.string().max(50).optional(),
  actorId: idString.optional(),
});

export const createBody = postInput({ types: TYPES, attachments: false });
export const updateBody = postPatchInput({ types: TYPES });
const PATCHABLE = [...Object.keys(updateBody.shape), 'to', 'canReply', 'canReact'];

function removed(row: Row, admin: AuthUser) {
  return [
    domainEvent('post.deleted', {
      objectId: String(row.id),
      objectType: 'Post',
      actorId: admin.id,
      ownerId: String(row.actorId),
    }),
  ];
}

export function postsRouter(ctx: AdminContext) {
  const { posts } = ctx.stores;
  return crudRouter(ctx, {
    name: 'post',
    type: 'Post',
    hidden: ['circles'],
    list(query, deleted, paging) {
      const q = parse(
        listQuery,
        { visibility: query.visibility, type: query.type, actorId: query.actorId },
        'query',
      );
      return posts.pageForAdmin(
        { deleted, tiersOnly: q.visibility !== 'all', type: q.type, actorId: q.actorId },
        paging,
      );
    },
    find: (id) => posts.byId(id),
    async create(body) {
      const b = parse(createBody, body);
      const to = serverAudience(ctx, body.to, 'to');
      const canReply = serverCapability(ctx, body.canReply, 'canReply', to);
      const canReact = serverCapability(ctx, body.canReact, 'canReact', to);
      const id = mintId('post', ctx.config.DOMAIN);
      const actor = await serverActor(ctx);
      const row = await posts.createLocal(
        newPost(
          b,
          { id, author: actor, server: actor.server, publicUrl: ctx.config.publicUrl },
          { to, canReply, canReact },
        ),
      );
      const event = domainEvent('post.created', {
        postId: String(row.id),
        actorId: String(row.actorId),
        to,
        type: b.type,
      });
      return { row, to, events: [event] };
    },
    async update(row, body, admin) {
      assertServerOwned(ctx, row, 'posts');
      if (row.deletedAt) throw new BadRequest('id: a deleted post cannot be edited; restore it first');
      const b = parse(updateBody, body);
      const audience = serverAudiencePatch(ctx, body, String(row.to));
      requirePatchable(body, PATCHABLE);
      const set = postChanges(b, row, audience.set);
      const updated = await posts.update(String(row.id), set);
      const event = domainEvent('post.updated', {
        objectId: String(row.id),
        objectType: 'Post',
        actorId: admin.id,
        ownerId: String(row.actorId),
        fields: Object.keys(set),
      });
      return { row: updated!, to: audience.to, events: [event] };
    },
    assertRestorable: (row) => assertNotAuthorDeleted(row, 'post'),
    softDelete: async (id, by) => !!(await posts.softDeletePost(id, by)),
    restore: async (id) => !!(await posts.restorePost(id)),
    hardDelete: (id) => posts.purgePost(id),
    deletedEvents: removed,
    // Federation reads `to` among the changed fields as "visible again": a public post is re-sent.
    restoredEvents: (row, admin) => [
      domainEvent('post.updated', {
        objectId: String(row.id),
        objectType: 'Post',
        actorId: admin.id,
        ownerId: String(row.actorId),
        fields: ['deletedAt', 'type', 'to'],
      }),
    ],
  });
}
