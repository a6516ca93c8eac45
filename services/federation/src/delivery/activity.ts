/**
 * The activity another server receives for a local post: `Create` with the post as a Note (or
 * Article), ids on this server's domain, the HTML body as `content` and the markdown as `source`,
 * addressed to the ActivityStreams Public collection (only public posts are delivered today).
 */
import type { PostDoc, Runtime } from '@agora/common';

export const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

export function createActivity(rt: Runtime, post: PostDoc): Record<string, unknown> {
  const published = (post.publishedAt ?? new Date()).toISOString();
  const actor = post.actor ?? {};
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${rt.config.publicUrl}/posts/${encodeURIComponent(post.id)}#create`,
    type: 'Create',
    actorId: post.actorId,
    actor: { id: post.actorId, name: actor.name ?? post.actorId, inbox: `${rt.config.publicUrl}/inbox` },
    to: [AS_PUBLIC],
    published,
    object: {
      id: post.id,
      type: post.type === 'Article' ? 'Article' : 'Note',
      attributedTo: post.actorId,
      content: post.body ?? '',
      source: post.source ?? undefined,
      url: post.url ?? undefined,
      published,
      to: [AS_PUBLIC],
    },
  };
}
