import { Router } from '@agora/common/http';
import type { FederationContext } from '../../context';
import { inboxHandler } from '../../inbox/route';

/** POST /users/:id/inbox: a personal inbox; the same intake as the shared inbox. */
export default function userInboxRoutes(ctx: FederationContext): Router {
  const r = Router();
  r.post('/:id/inbox', inboxHandler(ctx));
  return r;
}
