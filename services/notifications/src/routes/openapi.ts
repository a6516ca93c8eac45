/**
 * What the OpenAPI document says about the notification routes (docs/api.md); re-exported by
 * routes/notifications/index.ts. /users/:id/notifications answers as /notifications does.
 */
import { z } from 'zod';
import { collectionOf, wire, type RouteDocs } from '@agora/common/openapi';

const list = { summary: 'Notifications, newest first', response: collectionOf(wire.Notification) };
const count = { summary: 'How many are unread', response: z.object({ count: z.number() }) };

const stream = {
  summary: 'Live update hints as Server-Sent Events (docs/api.md, "Live updates")',
  responseMediaType: 'text/event-stream',
};

export const openapi: RouteDocs = {
  'GET /notifications/stream': stream,
  'GET /users/:id/notifications/stream': stream,
  'GET /notifications': list,
  'GET /notifications/unread/count': count,
  'GET /users/:id/notifications': list,
  'GET /users/:id/notifications/unread/count': count,
};
