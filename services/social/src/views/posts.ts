/** How a post is shown to a viewer. */
import { capabilityAllows, tierOf, type Viewer } from '@agora/common';

type Doc = Record<string, unknown> & {
  id: string;
  to?: string | null;
  actorId?: string | null;
  canReply?: string | null;
  canReact?: string | null;
};

export function presentPost(
  post: Doc,
  viewer: Viewer,
  domain: string,
  extras: { myReact?: string | null } = {},
) {
  const { _id, __v, ...rest } = post;
  void _id;
  void __v;
  const isOwner = viewer.id !== undefined && post.actorId === viewer.id;
  const owner = { to: post.to ?? null, actorId: post.actorId ?? null };
  return {
    ...rest,
    // Only the author sees the raw audience values of a non-public post's capabilities.
    canReply: capabilityAllows(post.canReply, owner, viewer, domain),
    canReact: capabilityAllows(post.canReact, owner, viewer, domain),
    visibility: tierOf(post.to, domain),
    ...(isOwner ? { audience: { to: post.to, canReply: post.canReply, canReact: post.canReact } } : {}),
    ...(extras.myReact !== undefined ? { myReact: extras.myReact } : {}),
  };
}
