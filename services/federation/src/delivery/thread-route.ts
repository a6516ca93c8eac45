/**
 * Where a reply or a reaction (or its edit or removal) made or received here goes
 * (docs/federation.md, "Threads"). The server owning the thread's root post is the authority for
 * the thread:
 *
 * - in a thread rooted here, what a local author does goes to every server holding a copy of the
 *   post; what a remote author's server told us (and we checked) is relayed to those servers,
 *   except the author's own, which has it;
 * - in another server's thread (this server holds a copy), what a local author does goes to the
 *   thread's server only, which checks it and relays it; what arrived from the thread's server
 *   goes nowhere;
 * - a change made here to a remote author's object (a moderator removing a remote reply) stays here.
 */
import { domainOf } from '@agora/common/federation';

export type ThreadRoute =
  { to: 'owner'; domain: string } | { to: 'copies'; relay: boolean; except?: string } | { to: 'nobody' };

export function threadRoute(input: {
  /** This server's domain. */
  domain: string;
  /** The origin of the thread's root: null when the root is this server's own post. */
  rootOrigin: string | null;
  /** The author of the reply or reaction. */
  authorId: string;
  /** Whether the change was the author's own (not a moderator's). */
  byAuthor: boolean;
}): ThreadRoute {
  const authorDomain = domainOf(input.authorId);
  const local = authorDomain === input.domain;
  if (input.rootOrigin === null) {
    if (local) return { to: 'copies', relay: false };
    return input.byAuthor && authorDomain
      ? { to: 'copies', relay: true, except: authorDomain }
      : { to: 'nobody' };
  }
  return local ? { to: 'owner', domain: input.rootOrigin } : { to: 'nobody' };
}
