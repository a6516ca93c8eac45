import { Router } from '@agora/common/http';
import type { FederationContext } from '../../context';
import { inboxHandler } from '../../inbox/route';

/** POST /inbox: the shared inbox (decisions.md §6, docs/federation.md). */
export default function inboxRoutes(ctx: FederationContext): Router {
  const r = Router();
  r.post('/', inboxHandler(ctx));
  return r;
}
