/** Named fixtures: registered users with tokens, and a helper to post activities as them. */
import { client } from './standalone';

export interface Actor {
  id: string;
  username: string;
  token: string;
}

export async function registerActor(api: ReturnType<typeof client>, username: string): Promise<Actor> {
  const res = await api.post<{ user: { id: string }; token: string }>('/register', {
    username,
    password: 'password123',
  });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.user.id, username, token: res.body.token };
}

export function outbox(api: ReturnType<typeof client>, actor: Actor | undefined, activity: unknown) {
  return api.post<{
    ok?: boolean;
    createdId?: string;
    result?: Record<string, unknown>;
    activity?: Record<string, unknown>;
    error?: string;
  }>('/outbox', activity, actor ? { token: actor.token } : {});
}
