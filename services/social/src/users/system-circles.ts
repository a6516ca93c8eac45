/**
 * Every user owns five circles made at registration: Following (a normal circle addressed to
 * the owner, with the owner as first member) and the system circles Groups, All Following,
 * Blocked and Muted.
 */
import type { CirclesStore } from '@agora/common/db';

export async function createSystemCircles(circles: CirclesStore, user: { id: string; username: string }) {
  const owner = { to: user.id, canReply: user.id, canReact: user.id, actorId: user.id };
  const following = await circles.create({
    ...owner,
    name: 'Following',
    type: 'Circle',
    members: [{ id: user.id, type: 'Person', name: user.username }],
  });
  const [groups, allFollowing, blocked, muted] = await Promise.all(
    ['Groups', 'All Following', 'Blocked', 'Muted'].map((name) =>
      circles.create({ ...owner, name, type: 'System' }),
    ),
  );
  return {
    following: following.id,
    groups: groups!.id,
    allFollowing: allFollowing!.id,
    blocked: blocked!.id,
    muted: muted!.id,
  };
}
