/**
 * What the OpenAPI document says about /admin (docs/api.md): the zod schemas these routes parse
 * their query and body with, and the response bodies the dashboard reads. A route not named
 * here is still in the document, with its path parameters and an undescribed body.
 */
import { z } from 'zod';
import { pageInput, pagePatchInput } from '@agora/common/content';
import { collectionOf, wire, wireAdmin, type RouteDocs } from '@agora/common/openapi';
import * as activities from '../../activities/router';
import * as circles from '../../circles/router';
import * as flagged from '../../flagged/router';
import * as groups from '../../groups/router';
import * as invites from '../../invites/router';
import * as pages from '../../pages/router';
import * as posts from '../../posts/router';
import * as recommendations from '../../curation/recommendations';
import * as roles from '../../system/roles';
import * as sections from '../../curation/sections';
import * as servers from '../../servers/router';
import * as users from '../../users/router';

const members = z.object({ members: z.array(wire.Member) });

/** The CRUD shape of content/crud.ts for one group. */
function crud(
  base: string,
  s: { listQuery?: z.ZodType; createBody?: z.ZodType; updateBody?: z.ZodType },
  item?: z.ZodType,
): RouteDocs {
  return {
    [`GET ${base}`]: { query: s.listQuery, ...(item ? { response: collectionOf(item) } : {}) },
    ...(s.createBody ? { [`POST ${base}`]: { body: s.createBody } } : {}),
    ...(s.updateBody ? { [`PATCH ${base}/:id`]: { body: s.updateBody } } : {}),
  };
}

export const openapi: RouteDocs = {
  'GET /admin/whoami': {
    summary: 'The admin the token belongs to',
    response: z.object({
      user: z.object({
        id: z.string(),
        username: z.string(),
        isServerAdmin: z.boolean(),
        isModerator: z.boolean(),
      }),
    }),
  },
  'GET /admin/activities': { query: activities.listQuery },
  'GET /admin/system': {
    summary: 'Counts, database, disk and process figures',
    response: wireAdmin.SystemStats,
  },
  'GET /admin/system/logs': {
    response: z.object({ lines: z.array(z.string()), total: z.number(), warning: z.string().optional() }),
  },
  'GET /admin/system/admins': { response: members },
  'POST /admin/system/admins': { body: roles.addBody },
  'GET /admin/system/mods': { response: members },
  'POST /admin/system/mods': { body: roles.addBody },
  'GET /admin/flagged': { query: flagged.listQuery, response: collectionOf(wireAdmin.Flag) },
  'PATCH /admin/flagged/:id': { body: flagged.closeBody },
  'GET /admin/users': { query: users.listQuery, response: collectionOf(wireAdmin.AdminUser) },
  'GET /admin/settings': { response: z.object({ settings: z.array(wireAdmin.Setting) }) },
  'GET /admin/invites': { query: invites.listQuery, response: collectionOf(wireAdmin.Invite) },
  'POST /admin/invites': {
    body: invites.createBody,
    status: 201,
    response: z.object({ invite: wireAdmin.Invite }),
  },
  'GET /admin/servers': { response: collectionOf(wireAdmin.KnownServer) },
  'PATCH /admin/servers/:domain': { body: servers.blockBody },
  'GET /admin/backup': {
    summary: 'The newest backup and restore jobs',
    response: z.object({ jobs: z.array(wireAdmin.BackupJob) }),
  },
  'POST /admin/backup': {
    summary: 'Queue a backup',
    status: 202,
    response: z.object({ job: wireAdmin.BackupJob }),
  },
  'GET /admin/backup/:id/download': {
    summary: 'The archive of a finished backup',
    responseMediaType: 'application/gzip',
  },
  'POST /admin/backup/restore': {
    summary: 'Restore from an uploaded archive',
    bodyMediaType: 'multipart/form-data',
    status: 202,
  },
  ...crud('/admin/posts', posts),
  ...crud('/admin/circles', circles),
  ...crud('/admin/groups', groups),
  ...crud('/admin/pages', { listQuery: pages.listQuery, createBody: pageInput, updateBody: pagePatchInput }),
  ...crud('/admin/sections', sections, wireAdmin.Section),
  ...crud('/admin/recommendations', recommendations, wireAdmin.Recommendation),
};
