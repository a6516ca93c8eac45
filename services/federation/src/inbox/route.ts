/** The one inbox handler behind POST /inbox, /users/:id/inbox and /groups/:id/inbox. */
import { handler } from '@agora/common/http';
import type { RequestHandler } from 'express';
import type { FederationContext } from '../context';
import { acceptInbound } from './accept';

export function inboxHandler(ctx: FederationContext): RequestHandler {
  return handler(
    async ({ req, set, setStatus }) => {
      const { duplicate } = await acceptInbound(ctx, req);
      setStatus(202);
      set('accepted', true);
      if (duplicate) set('duplicate', true);
    },
    { allowUnauth: true },
  );
}
