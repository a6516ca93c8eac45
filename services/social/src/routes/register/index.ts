import { Router, handler } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { parseRegistration, registerUser } from '../../users/register';

/** POST /register (spec 5.4, decisions.md §3). */
export default function registerRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.post(
    '/',
    handler(
      async ({ body, set, setStatus }) => {
        const result = await registerUser(ctx, parseRegistration(body));
        setStatus(201);
        if (result.kind === 'verification') {
          set('requiresVerification', true);
          set('message', 'Account created. Please check your email to verify your address.');
          return;
        }
        set('user', result.user);
        set('token', result.token);
      },
      { allowUnauth: true },
    ),
  );
  return r;
}
