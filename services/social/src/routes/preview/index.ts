/** GET /preview?url= (issue 12): a link's OpenGraph card, for signed-in users (it fetches on their behalf). */
import { Router } from 'express';
import { handler } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { linkPreview, previewTarget } from '../../preview/service';

export default function previewRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.get(
    '/',
    handler(
      async ({ query, set }) => {
        const preview = await linkPreview(ctx, previewTarget(query.url));
        for (const [k, v] of Object.entries(preview)) set(k, v);
      },
      { requireAuth: true },
    ),
  );
  return r;
}
