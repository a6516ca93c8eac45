import { canSee } from '@agora/common/audience';
import { BadRequest, NotAuthorized, NotFound, Unauthorized } from '@agora/common/errors';
import {
  Router,
  collectionBase,
  collectionFor,
  handler,
  orderedCollection,
  parsePaging,
  searchOf,
  setAll,
} from '@agora/common/http';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { lookup, parseMode } from '../../views/lookup';
import { readableObject } from '../../access/objects';
import { presentPost } from '../../views/posts';
import { GROUP_ID, canReadGroupPosts, groupRoles, loadGroup, type GroupRecord } from '../../access/groups';
import { GROUP_LIST_FIELDS, circleMembersCollection } from '../../views/groups';
import { fetchRemoteMembers } from '../../views/remote-members';
import { hiddenAuthors } from '../../access/suspended';
import { counted, groupShare, suspendedShare } from '../../access/suspended-counts';

/** /groups (behaviour-notes §3.8, audience-checked on every route). */
export default function groupRoutes(ctx: SocialContext): Router {
  const r = Router();
  const domain = ctx.config.DOMAIN;

  // Anonymous and remote viewers see @public groups; local users also @<domain> groups and
  // groups addressed to their circles or groups; everyone sees the groups they created.
  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const paging = parsePaging(query);
      const { total, items } = await ctx.stores.groups.pageLocalVisibleTo(viewer, paging, GROUP_LIST_FIELDS);
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const mode = parseMode(query.mode);
      const id = params.id!;
      const item = GROUP_ID.test(id) ? await lookup(ctx, viewer, id, mode) : null;
      if (!item) throw new NotFound('Not found');
      const roles = await groupRoles(ctx, item as unknown as GroupRecord, viewer.id);
      set('item', {
        ...item,
        isMember: roles.members,
        isAdmin: roles.admins,
        isModerator: roles.moderators,
        isPending: roles.pending,
      });
    }),
  );

  r.get(
    '/:id/members',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      if (!GROUP_ID.test(params.id!)) throw new NotFound('Group not found');
      const { doc } = await readableObject(ctx, viewer, params.id!, 'Group not found');
      const group = doc as unknown as GroupRecord;
      const paging = parsePaging(query);
      const base = collectionBase(ctx.config.publicUrl, req);
      // Another server's group: its server lists every member (this server caches only its own).
      const remote = group.originDomain ? await fetchRemoteMembers(ctx, group.id, paging) : null;
      setAll(
        set,
        remote
          ? orderedCollection({ base, search: searchOf(req), paging, ...remote })
          : await circleMembersCollection(ctx, group, 'members', base, searchOf(req), paging),
      );
    }),
  );

  r.get(
    '/:id/pending',
    handler(
      async ({ req, params, query, set }) => {
        const viewer = await viewerOf(ctx, req);
        const group = await loadGroup(ctx, params.id);
        // A group the viewer may not see reads like a missing one (docs/security.md).
        if (!(await groupRoles(ctx, group, viewer.id)).admins) {
          if (!canSee(group, viewer, domain)) throw new NotFound('Group not found');
          throw new NotAuthorized('Access denied');
        }
        const c = await circleMembersCollection(
          ctx,
          group,
          'pending',
          collectionBase(ctx.config.publicUrl, req),
          searchOf(req),
          parsePaging(query),
        );
        setAll(set, c);
      },
      { requireAuth: true },
    ),
  );

  r.get(
    '/:id/posts',
    handler(async ({ req, params, query, set }) => {
      const viewer = await viewerOf(ctx, req);
      const group = await loadGroup(ctx, params.id);
      const access = canReadGroupPosts(group, viewer, domain);
      // A group the viewer may not see reads like a missing one (docs/security.md).
      if (access !== 'ok' && !canSee(group, viewer, domain)) throw new NotFound('Group not found');
      if (access === 'anonymous') throw new Unauthorized('Authentication required');
      if (access === 'denied') throw new NotAuthorized('Access denied');
      let types: string[] | undefined;
      if (query.type !== undefined) {
        types =
          typeof query.type === 'string'
            ? query.type
                .split(',')
                .filter((t) => /^[A-Za-z]{1,30}$/.test(t))
                .slice(0, 10)
            : [];
        if (!types.length) throw new BadRequest('type must be a comma-separated list of post types');
      }
      const paging = parsePaging(query);
      const { total, items: posts } = await ctx.stores.posts.pageForGroup(
        group.id,
        types,
        paging,
        await hiddenAuthors(ctx),
      );
      // The list's counters still count the suspended accounts' posts: their share is taken out.
      const share = await suspendedShare(ctx);
      const shown = Math.max(0, total - groupShare(share, group.id, types));
      const items = posts.map((p) => presentPost(counted(share, p) as never, viewer, domain));
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, shown, items));
    }),
  );
  return r;
}
