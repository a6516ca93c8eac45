/**
 * Who may tell this server about a reply or a reaction (or their edits and removals) in a thread
 * (docs/federation.md, "Threads"). The server that owns a thread's root post is the authority
 * for the thread:
 *
 * - a thread rooted here: a peer speaks only for its own users, and what it says is checked as a
 *   local write would be (`check`), then relayed to the servers holding copies of the post;
 * - a thread rooted on another server (this server holds a copy of its root): only that server
 *   is heard, for its own users and for the interactions it relays from others (`vouched`): it
 *   has checked them against the post's audience, which this server cannot fully know;
 * - anyone else is refused: a third server's word about someone else's thread would bypass the
 *   owner's checks.
 */
import { domainOf } from '@agora/common/federation';

export type Admission =
  { verdict: 'check' } | { verdict: 'vouched' } | { verdict: 'refused'; reason: string };

export function admit(input: {
  /** The server that signed what arrived (for a relay, the relaying server). */
  signerDomain: string;
  /** The author of the reply or reaction. */
  actorId: string;
  /** The origin of the thread's root: null when the root is this server's own post. */
  rootOrigin: string | null;
}): Admission {
  const { signerDomain, actorId, rootOrigin } = input;
  if (rootOrigin === null)
    return domainOf(actorId) === signerDomain
      ? { verdict: 'check' }
      : {
          verdict: 'refused',
          reason: "actor: a server speaks here only for its own users in this server's threads",
        };
  return rootOrigin === signerDomain
    ? { verdict: 'vouched' }
    : {
        verdict: 'refused',
        reason: `only ${rootOrigin}, which owns the thread, may tell this server about it`,
      };
}
