/**
 * An Update of a local actor in ActivityPub form (ADR 0028): the whole actor document as its
 * object, so a peer refreshes its copy of the actor in one step. A suspension (an admin's soft
 * delete) is told this way, with `suspended: true` (Mastodon's `toot:suspended`), and so is its
 * lifting (the restore: the document without it). It is built here, not mapped from the spec's
 * wire by outbound.ts, because the term needs the actor context (vocab.ts) to survive a strict
 * JSON-LD reader.
 */
import type { UserRecord } from '@agora/common/db';
import type { FederationContext } from '../context';
import type { OutgoingActivity } from '../delivery/activity';
import { userActorDocument } from './documents';
import { AP_ACTOR_CONTEXT, AP_PUBLIC } from './vocab';

export async function actorUpdateActivity(
  ctx: FederationContext,
  user: UserRecord,
  eventId: string,
  suspended: boolean,
): Promise<OutgoingActivity> {
  const doc = await userActorDocument(ctx, user);
  const { '@context': _context, suspended: _was, ...actor } = doc;
  void _context;
  void _was;
  const url = String(actor.id);
  return {
    '@context': AP_ACTOR_CONTEXT,
    id: `${url}#update-${encodeURIComponent(eventId)}`,
    type: 'Update',
    actor: url,
    to: [AP_PUBLIC],
    cc: [`${url}/followers`],
    object: { ...actor, ...(suspended ? { suspended: true } : {}) },
  };
}
