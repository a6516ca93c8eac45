/**
 * How a post is shown to a viewer. `canReply`/`canReact` are booleans for this viewer (the prior
 * implementation's coarse strings lost per-post restrictions, behaviour-notes §2); the author also
 * gets the raw values under `audience`. `attributedTo` and `published` follow the timeline item
 * shape of behaviour-notes §3.7.
 */
import { capabilityAllows, tierOf, type Viewer } from '@agora/common/audience';

type Doc = Record<string, unknown> & {
  id: string;
  to?: string | null;
  actorId?: string | null;
  canReply?: string | null;
  canReact?: string | null;
  actor?: { id?: string; name?: string; icon?: string; url?: string; server?: string } | null;
  publishedAt?: Date | string | null;
};

function attributedTo(post: Doc) {
  const a = post.actor ?? {};
  const id = a.id ?? post.actorId ?? null;
  const username = typeof id === 'string' ? (id.split('@')[1] ?? id) : null;
  return { id, name: a.name || username, icon: a.icon ?? null, url: a.url ?? null, server: a.server ?? null };
}

export function presentPost(
  post: Doc,
  viewer: Viewer,
  domain: string,
  extras: { myReact?: string | null } = {},
) {
  // `circles` is where fan-out put the post: it would tell who the author's circles are.
  const { _id, __v, circles, ...rest } = post;
  void _id;
  void __v;
  void circles;
  const isOwner = viewer.id !== undefined && post.actorId === viewer.id;
  const owner = { to: post.to ?? null, actorId: post.actorId ?? null };
  return {
    ...rest,
    // Only the author sees the raw audience values of a non-public post's capabilities.
    canReply: capabilityAllows(post.canReply, owner, viewer, domain),
    canReact: capabilityAllows(post.canReact, owner, viewer, domain),
    visibility: tierOf(post.to, domain),
    attributedTo: attributedTo(post),
    published: post.publishedAt ?? null,
    ...(isOwner ? { audience: { to: post.to, canReply: post.canReply, canReact: post.canReact } } : {}),
    ...(extras.myReact !== undefined ? { myReact: extras.myReact } : {}),
  };
}
