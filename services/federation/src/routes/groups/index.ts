import { Router } from '@agora/common/http';
import type { FederationContext } from '../../context';
import { inboxHandler } from '../../inbox/route';

/** POST /groups/:id/inbox: a group's inbox; the same intake as the shared inbox. */
export default function groupInboxRoutes(ctx: FederationContext): Router {
  const r = Router();
  r.post('/:id/inbox', inboxHandler(ctx));
  return r;
}
