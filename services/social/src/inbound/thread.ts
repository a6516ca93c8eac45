/**
 * What an inbound reply or reaction acts on: the post or reply it names, held here (this
 * server's own, or a copy), the thread it belongs to, and whether its sender may speak about that
 * thread (thread-trust.ts). For a thread rooted here the remote author is checked as a local
 * author would be: they must see what they answer, and the root's `canReply` / `canReact` must
 * admit them, with the circles they (or their server) belong to here.
 */
import type { Viewer } from '@agora/common/audience';
import { parseId } from '@agora/common/db';
import { AppError } from '@agora/common/errors';
import { domainOf } from '@agora/common/federation';
import type { SocialContext } from '../context';
import {
  assertCapability,
  threadOf,
  visibleTarget,
  type Found,
} from '../activities/handlers/interactions/targets';
import { findObject } from '../access/objects';
import type { Inbound, Outcome } from './apply';
import { admit } from './thread-trust';

export const ignored = (reason: string): Outcome => ({ status: 'ignored', reason });
export const rejected = (reason: string): Outcome => ({ status: 'rejected', reason });

export interface Thread {
  /** The post or reply named. */
  target: Found;
  /** The thread's root post. */
  root: Found;
  /** The first-level reply a new reply joins, or the root. */
  parentId: string;
  /** Where the root comes from: null when it is this server's own post. */
  rootOrigin: string | null;
}

/** The thread of a post or reply held here (a live one), or why there is none. */
export async function threadAt(ctx: SocialContext, id: string): Promise<Thread | Outcome> {
  const kind = parseId(id).kind;
  const found = kind === 'post' || kind === 'reply' ? await findObject(ctx, id) : null;
  if (!found) return ignored('no post or reply with that id is held here');
  let thread: { root: Found; parentId: string };
  try {
    thread = await threadOf(ctx, found);
  } catch (err) {
    if (err instanceof AppError) return ignored("the reply's thread is not held here");
    throw err;
  }
  if (thread.root.kind !== 'post') return ignored('only threads of posts are federated');
  const origin = thread.root.doc.originDomain;
  return {
    target: found,
    ...thread,
    rootOrigin: typeof origin === 'string' && origin ? origin : null,
  };
}

export function isThread(t: Thread | Outcome): t is Thread {
  return 'root' in t;
}

/**
 * A remote user as a viewer here: never local, with the circles and groups this server counts
 * them in, and those of their server (a circle may hold `@<domain>`, all of that server's users).
 */
export async function remoteActorViewer(ctx: SocialContext, actorId: string): Promise<Viewer> {
  const own = await ctx.stores.circles.membershipsOf(actorId);
  const server = await ctx.stores.circles.membershipsOf(`@${domainOf(actorId) ?? ''}`);
  return {
    id: actorId,
    local: false,
    isAdmin: false,
    circleIds: [...new Set([...own.circles, ...server.circles])],
    groupIds: [...new Set([...own.groups, ...server.groups])],
  };
}

/** Whether the sender may tell this server about the author's interaction in the thread. */
export function trusted(
  a: Pick<Inbound, 'actorId' | 'signerDomain'>,
  thread: Thread,
): { verdict: 'check' | 'vouched' } | Outcome {
  const admission = admit({
    signerDomain: a.signerDomain,
    actorId: a.actorId,
    rootOrigin: thread.rootOrigin,
  });
  return admission.verdict === 'refused' ? rejected(admission.reason) : admission;
}

/**
 * For a thread rooted here: whether the remote author may do what a local author may, seeing the
 * target and admitted by the root's capability (`which`). Undefined when permitted, else the
 * refusal (which their server is told of: a `*.refused` event).
 */
export async function denied(
  ctx: SocialContext,
  actorId: string,
  thread: Thread,
  which: 'canReply' | 'canReact',
): Promise<Outcome | undefined> {
  const viewer = await remoteActorViewer(ctx, actorId);
  try {
    await visibleTarget(ctx, viewer, thread.target.doc.id, { copies: true });
    assertCapability(ctx, viewer, thread.root, which);
  } catch (err) {
    if (err instanceof AppError)
      return rejected(
        err.status === 404
          ? 'the author may not see what they answer'
          : `${which}: the post does not admit the author`,
      );
    throw err;
  }
  return undefined;
}

/** For changes an author makes to what they wrote: only whether the sender may speak of it. */
export function untrusted(a: Pick<Inbound, 'actorId' | 'signerDomain'>, thread: Thread): Outcome | undefined {
  const trust = trusted(a, thread);
  return 'status' in trust ? trust : undefined;
}

/** The author copy stored on a remote reply or reaction. */
export function authorRef(actorId: string, name: string | undefined) {
  return { id: actorId, name: name ?? actorId, server: `@${domainOf(actorId) ?? ''}` };
}
