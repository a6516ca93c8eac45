/**
 * What the OpenAPI document says about the social service's routes (docs/api.md): the zod
 * schemas they parse input with, and the response bodies the web app reads. Re-exported by
 * routes/home/index.ts (route modules are where the route tree looks for `openapi`). A route
 * not named here is still in the document, with its path parameters and an undescribed body.
 */
import { z } from 'zod';
import { collectionOf, timelineOf, wire, wireAdmin, type RouteDocs } from '@agora/common/openapi';
import { DESCRIPTION_MAX } from '@agora/common/content';
import { registrationSchema } from '../users/register';

const item = <S extends z.ZodType>(s: S) => z.object({ item: s });
const session = z.object({ token: z.string(), user: wire.SessionUser });

export const openapi: RouteDocs = {
  'GET /config.json': { summary: 'The server settings a client needs', response: wire.ServerConfig },
  'POST /register': {
    summary: 'Create an account (201: a session, or the e-mail verification notice)',
    body: registrationSchema,
    status: 201,
    response: z.union([session, z.object({ requiresVerification: z.literal(true), message: z.string() })]),
  },
  'POST /auth/login': { summary: 'Sign in', response: session },
  'GET /auth/me': { summary: 'The signed-in user', response: z.object({ user: wire.SessionUser }) },
  'POST /outbox': {
    summary: 'Post an activity (create, update, delete, follow, react, ...): spec 3',
    status: 201,
    response: z.object({
      ok: z.literal(true),
      activity: z.record(z.string(), z.unknown()),
      result: z.looseObject({ id: z.string() }),
      createdId: z.string().optional(),
    }),
  },
  'GET /posts': { response: collectionOf(wire.Post) },
  'GET /posts/:id': { response: wire.Post },
  'GET /posts/:id/replies': { response: collectionOf(wire.Reply) },
  'GET /posts/:id/reacts': { response: collectionOf(wire.React) },
  'GET /users/:id': { response: item(wire.UserDetail) },
  'GET /users/:id/posts': { response: collectionOf(wire.Post) },
  'GET /users/:id/circles': { response: collectionOf(wire.Circle) },
  'GET /users/:id/groups': { response: collectionOf(wire.Group) },
  'GET /users/:id/bookmarks': { response: collectionOf(wire.Bookmark) },
  'GET /circles': { response: collectionOf(wire.Circle) },
  'GET /circles/:id': { response: item(wire.Circle) },
  'GET /circles/:id/members': { response: collectionOf(wire.Member) },
  'GET /circles/:id/posts': { summary: 'A circle timeline page', response: timelineOf(wire.Post) },
  'GET /groups': { response: collectionOf(wire.Group) },
  'GET /groups/:id': { response: item(wire.Group) },
  'GET /groups/:id/members': { response: collectionOf(wire.Member) },
  'GET /groups/:id/pending': { response: collectionOf(wire.Member) },
  'GET /groups/:id/posts': { response: collectionOf(wire.Post) },
  'GET /pages': { response: collectionOf(wire.Page) },
  'GET /bookmarks/:id': { response: item(wire.Bookmark) },
  'GET /recommendations': {
    summary: 'The Discover shelves',
    response: collectionOf(wireAdmin.DiscoverShelf),
  },
  'POST /files': {
    summary: 'Upload a file (the "file" field)',
    bodyMediaType: 'multipart/form-data',
    status: 201,
    response: z.object({ ok: z.literal(true), file: wireAdmin.UploadedFile }),
  },
  'PATCH /files/:id': {
    summary: "Set a file's description (its alt text): the owner only",
    body: z.object({ description: z.string().max(DESCRIPTION_MAX) }).strict(),
    response: z.object({ file: wireAdmin.UploadedFile }),
  },
  'GET /files/:id': { summary: 'The stored file, with its own media type', responseMediaType: '*/*' },
  'GET /files/:id/preview': { summary: 'The preview image of a file', responseMediaType: '*/*' },
};
