/** Helpers shared by the /users route files. */
import type { Request } from 'express';
import { NotFound, type Runtime, type UserRecord } from '@agora/common';

/** The user a /users/:id/… route is about: live (active, not deleted), else 404. */
export async function liveUser(rt: Runtime, id: string): Promise<UserRecord> {
  const user = await rt.repos.users.findActiveById(id);
  if (!user) throw new NotFound('User not found');
  return user;
}

/** The request's query string, kept on collection page links. */
export function searchOf(req: Request): URLSearchParams {
  return new URLSearchParams(req.url.split('?')[1] ?? '');
}

/** Copies a collection (or any body) into the handler's response. */
export function setAll(set: (key: string, value: unknown) => void, body: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(body)) set(k, v);
}
