/** Who may address what: the writer of an object must be able to use the audience it names. */
import { canSee, type Viewer } from '@agora/common/audience';
import { BadRequest, NotAuthorized, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../context';

export async function assertCanAddress(ctx: SocialContext, viewer: Viewer, to: string): Promise<void> {
  const domain = ctx.config.DOMAIN;
  if (to === '@public' || to === `@${domain}`) return;
  if (to.startsWith('@')) {
    if (to !== viewer.id) throw new BadRequest('to: only your own id can be used as a private audience');
    return;
  }
  if (to.startsWith('circle:')) {
    const circle = await ctx.stores.circles.findById(to);
    if (!circle) throw new NotFound('Circle not found');
    // Another server's circle cached here says who of ours may read what it addressed; posting
    // to it would need its origin to reach its other members (not federated yet).
    if (circle.originDomain) throw new BadRequest("to: another server's circle cannot be addressed here");
    if (circle.actorId !== viewer.id && !viewer.circleIds.includes(to)) {
      // A circle the writer may not even see reads like a missing one (no oracle).
      if (!canSee(circle, viewer, domain)) throw new NotFound('Circle not found');
      throw new NotAuthorized('You can only address circles you own or belong to');
    }
    return;
  }
  if (to.startsWith('group:')) {
    const group = await ctx.stores.groups.liveById(to);
    if (!group) throw new NotFound('Group not found');
    if (!viewer.groupIds.includes(to)) {
      if (!canSee(group, viewer, domain)) throw new NotFound('Group not found');
      throw new NotAuthorized('Only group members can post to a group');
    }
    return;
  }
  throw new BadRequest('to: unsupported audience');
}
