/**
 * Flag (behaviour-notes §4.3, fixed): the reason must be one of the `flagOptions` setting (by
 * code or label); the target must exist here and be visible to the flagger; an open flag by the
 * same actor on the same target for the same reason is returned instead of a second one. Ids are
 * full server-minted ids (the reference's 32-bit ids collide). Another server's object may be
 * flagged too, and forwarded to it (flag-remote.ts).
 */
import { z } from 'zod';
import { mintId } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../../../context';
import type { ActivityHandler, HandlerContext } from '../../types';
import { clean, idString, parse } from '../../validate';
import { KIND_MODELS, kindAmong, visibleTarget } from './targets';
import { isRemote, parseForward, remoteTarget } from './flag-remote';
import { domainEvent } from '@agora/common/messaging';

const FLAGGABLE = ['post', 'reply', 'page', 'bookmark', 'group', 'circle', 'user'] as const;

const flagObject = z.object({
  reason: z.union([
    z.string().trim().min(1).max(100),
    z
      .object({
        code: z.string().trim().max(100).optional(),
        label: z.string().trim().max(100).optional(),
        details: z.string().max(2000).optional(),
      })
      .refine((r) => r.code || r.label, { message: 'needs a code or a label' }),
  ]),
  notes: z.string().max(2000).optional(),
});

interface FlagOption {
  code: string;
  label: string;
  description: string;
}

/** The setting is a map `{code: {label, description}}`; an admin may also store a list. */
export async function flagOptions(svc: SocialContext): Promise<FlagOption[]> {
  const raw = await svc.stores.settings.get<unknown>('flagOptions');
  const entries: Array<[string, unknown]> = Array.isArray(raw)
    ? raw.map((o: { code?: unknown; id?: unknown }) => [
        typeof o?.code === 'string' ? o.code : typeof o?.id === 'string' ? o.id : '',
        o,
      ])
    : raw && typeof raw === 'object'
      ? Object.entries(raw)
      : [];
  const out = entries
    .filter(([code]) => code)
    .map(([code, v]) => {
      const o = (v && typeof v === 'object' ? v : {}) as { label?: unknown; description?: unknown };
      return {
        code,
        label: typeof o.label === 'string' ? o.label : code,
        description: typeof o.description === 'string' ? o.description : '',
      };
    });
  if (!out.length) throw new Error('the flagOptions setting is missing or empty');
  return out;
}

function resolveReason(options: FlagOption[], reason: z.infer<typeof flagObject>['reason']) {
  const wanted = typeof reason === 'string' ? reason : (reason.code ?? reason.label ?? '');
  const key = wanted.toLowerCase();
  const option =
    options.find((o) => o.code.toLowerCase() === key) ?? options.find((o) => o.label.toLowerCase() === key);
  if (!option)
    throw new BadRequest(
      `object.reason: unknown reason (use one of ${options.map((o) => o.code).join(', ')})`,
    );
  const details = typeof reason === 'string' ? undefined : reason.details;
  return {
    code: option.code,
    label: option.label,
    description: option.description,
    ...(details ? { details } : {}),
  };
}

/** The flagged object's type and author, if the flagger may see it. */
async function flaggedTarget(
  ctx: HandlerContext,
  id: string,
): Promise<{ targetType: string; targetActorId: string | null }> {
  const kind = kindAmong(ctx.svc, id, FLAGGABLE, 'target');
  if (kind === 'user') {
    const user = await ctx.svc.stores.users.findActiveById(id);
    if (!user) throw new NotFound('User not found');
    return { targetType: 'User', targetActorId: user.id };
  }
  const found = await visibleTarget(ctx.svc, ctx.viewer, id);
  return { targetType: KIND_MODELS[found.kind], targetActorId: found.doc.actorId ?? null };
}

export const flag: ActivityHandler = async (ctx) => {
  const { svc, actor } = ctx;
  const target = parse(idString, ctx.activity.target, 'target');
  const obj = parse(flagObject, ctx.activity.object, 'object');
  const reason = resolveReason(await flagOptions(svc), obj.reason);
  const remote = isRemote(ctx, target);
  // Only a remote object's flag can go anywhere: a local one is already where it belongs.
  const forward = parseForward(ctx.activity.forward) && remote;
  const { targetType, targetActorId } = remote
    ? await remoteTarget(ctx, target)
    : await flaggedTarget(ctx, target);

  const open = await svc.stores.flags.openTwin(actor.id, target, reason.code);
  if (open)
    return { result: { ...clean(open), duplicated: true }, objectId: open.id, objectType: 'Flag', target };

  const id = mintId('flag', svc.config.DOMAIN);
  const created = await svc.stores.flags.create({
    id,
    target,
    targetType,
    targetActorId,
    reason,
    ...(obj.notes ? { notes: obj.notes } : {}),
    actorId: actor.id,
    server: `@${svc.config.DOMAIN}`,
    ...(forward ? { forward } : {}),
  });
  return {
    result: clean(created as Record<string, unknown>),
    objectId: id,
    objectType: 'Flag',
    target,
    events: [
      domainEvent('flag.created', {
        flagId: id,
        target,
        targetType,
        targetActorId,
        actorId: actor.id,
        reason: reason.code,
      }),
    ],
  };
};
