/** Replies as the social service builds them: the text, its rendered body and the stored shape. */
import { z } from 'zod';
import { invalid, markdownSource, rendered, sourceOf, type Origin } from './fields';
import { newSensitivity, sensitivityChanges, sensitivityShape } from './sensitivity';

export const replyInput = z
  .object({ source: markdownSource.optional(), content: markdownSource.optional(), ...sensitivityShape })
  .refine((o) => (sourceOf(o) ?? '').trim(), { message: 'a reply needs content (source or content)' });

export type ReplyInput = z.infer<typeof replyInput>;

export const replyPatchInput = z.object({
  source: markdownSource.optional(),
  content: markdownSource.optional(),
  ...sensitivityShape,
});

export type ReplyPatch = z.infer<typeof replyPatchInput>;

/** The text of a reply (for the same-text check before it is written). */
export function replyText(input: ReplyInput): string {
  return sourceOf(input) ?? '';
}

/** A new reply as stored: `target` is the thread's root, `parent` the reply it answers or the root. */
export function newReply(input: ReplyInput, origin: Origin, thread: { target: string; parent: string }) {
  return {
    id: origin.id,
    actorId: origin.author.id,
    actor: origin.author,
    server: origin.server,
    url: `${origin.publicUrl}/posts/${origin.id}`,
    target: thread.target,
    parent: thread.parent,
    ...rendered(replyText(input)),
    ...newSensitivity(input),
  };
}

/** The changes an edit makes: the text rendered again; a reply is never left empty. */
export function replyChanges(patch: ReplyPatch, prefix = ''): Record<string, unknown> {
  const source = sourceOf(patch);
  const set = sensitivityChanges(patch);
  if (source === undefined) return set;
  if (!source.trim()) throw invalid(prefix, 'source', 'a reply needs content');
  return { ...set, ...rendered(source) };
}
