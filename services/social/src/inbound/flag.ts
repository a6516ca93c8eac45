/**
 * Flag forwarding, inbound (docs/federation.md, "Flag forwarding"): another server reports objects
 * of this one. Each object it names that is this server's and that the reporting server may see
 * (its remote-viewer tier: public, or addressed to a circle it is a member of; a live local user)
 * becomes an open flag from that server (`actorId` the reporting actor, `server` its domain), in
 * the admins' queue like any other. The reason is this server's option of the same code, else
 * `other` with the reporter's words as details. The same report twice (by activity id) is
 * processed once (the inbox); an open flag of the same target by the same actor for the same
 * reason is not made twice.
 */
import { canSee } from '@agora/common/audience';
import { mintId, type FlagReason } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';
import type { SocialContext } from '../context';
import { flagOptions } from '../activities/handlers/interactions/flag';
import { KIND_MODELS, type StoredKind } from '../activities/handlers/interactions/targets';
import { effectiveAudience, findObject } from '../access/objects';
import type { Inbound, Outcome } from './apply';
import { belongsTo, isObject, objectId } from './shape';

const MAX_OBJECTS = 20;

async function reasonOf(ctx: SocialContext, activity: Record<string, unknown>): Promise<FlagReason> {
  const given = isObject(activity.reason) ? activity.reason : {};
  const code = typeof given.code === 'string' ? given.code.slice(0, 100).toLowerCase() : '';
  const words = [given.label, activity.content].find((w): w is string => typeof w === 'string' && !!w.trim());
  const options = await flagOptions(ctx);
  const option = options.find((o) => o.code === code) ?? options.find((o) => o.code === 'other');
  return {
    code: option?.code ?? 'other',
    label: option?.label ?? 'Other',
    ...(option?.description ? { description: option.description } : {}),
    ...(option?.code !== code && words ? { details: words.slice(0, 2000) } : {}),
  };
}

/** What a flag records of a target the reporting server may see, or undefined. */
async function visibleTo(ctx: SocialContext, server: string, id: string) {
  const local = domainOf(id) === ctx.config.DOMAIN.toLowerCase();
  if (!local) return undefined;
  if (id.startsWith('@')) {
    const user = await ctx.stores.users.findActiveById(id);
    return user ? { targetType: 'User', targetActorId: user.id } : undefined;
  }
  const found = await findObject(ctx, id);
  const audience = found && (await effectiveAudience(ctx, found));
  if (!found || !audience) return undefined;
  const { circles } = await ctx.stores.circles.membershipsOf(server);
  const viewer = { id: server, local: false, isAdmin: false, circleIds: circles, groupIds: [] };
  if (!canSee(audience, viewer, ctx.config.DOMAIN)) return undefined;
  return { targetType: KIND_MODELS[found.kind as StoredKind], targetActorId: found.doc.actorId ?? null };
}

export async function flagInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  if (!belongsTo(a.actorId, a.signerDomain))
    return { status: 'rejected', reason: 'actor: not of the signer' };
  const raw = Array.isArray(a.activity.object) ? a.activity.object : [a.activity.object];
  const ids = raw
    .map(objectId)
    .filter((id): id is string => !!id)
    .slice(0, MAX_OBJECTS);
  const reason = await reasonOf(ctx, a.activity);
  const notes = typeof a.activity.content === 'string' ? a.activity.content.slice(0, 2000) : undefined;
  let made = 0;
  for (const id of ids) {
    const target = await visibleTo(ctx, `@${a.signerDomain}`, id);
    if (!target) continue;
    if (await ctx.stores.flags.openTwin(a.actorId, id, reason.code)) continue;
    await ctx.stores.flags.create({
      id: mintId('flag', ctx.config.DOMAIN),
      target: id,
      ...target,
      reason,
      ...(notes ? { notes } : {}),
      actorId: a.actorId,
      server: `@${a.signerDomain}`,
    });
    made++;
  }
  if (made) return { status: 'processed' };
  return {
    status: 'rejected',
    reason: 'object: names nothing of this server that the reporting server may see',
  };
}
