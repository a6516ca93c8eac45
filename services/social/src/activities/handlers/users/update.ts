/**
 * Update of a User (behaviour-notes §4.3, fixed): only the user themselves, never an admin on
 * their behalf (403). `object` may carry `profile` and `prefs` (applied per sub-key, so the
 * siblings of a changed key survive), `to` (the profile's audience: `@public` or `@<domain>`)
 * and `password: { current, new }` (the current one must match). The Update activity's one
 * registry entry (interactions) dispatches User targets here.
 */
import { z } from 'zod';
import { hashPassword, verifyPassword } from '@agora/common/auth';
import { sanitize } from '@agora/common/content';
import { BadRequest, NotAuthorized, NotFound } from '@agora/common/errors';
import type { HandlerContext, HandlerResult } from '../../types';
import { httpUrl, mediaRef, parse } from '../../validate';
import { presentUser } from '../../../users/present';
import { attachFiles, fileIdsIn } from '../../../files/attach';
import { domainEvent } from '@agora/common/messaging';

const KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
// Images are our /files paths, file ids or http(s) URLs: never javascript: or data: URLs.
const imageRef = z.union([z.literal(''), mediaRef]);

const profilePatch = z
  .object({
    name: z.string().trim().min(1).max(100),
    subtitle: z.string().max(200),
    description: z.string().max(5000),
    pronouns: z.string().max(100),
    urls: z.array(httpUrl).max(10),
    icon: imageRef,
    featuredImage: imageRef,
  })
  .partial()
  .strict();

const scalar = z.union([z.boolean(), z.number(), z.string().max(1000), z.null()]);
const prefValue = z.union([
  scalar,
  z.array(scalar).max(100),
  z.record(z.string().regex(KEY, 'must be a preference name'), scalar),
]);
const prefsPatch = z
  .record(z.string().regex(KEY, 'must be a preference name'), prefValue)
  .refine((p) => Object.keys(p).length <= 100, 'at most 100 preferences at once');

const userPatch = z
  .object({
    profile: profilePatch.optional(),
    prefs: prefsPatch.optional(),
    to: z.string().max(300).optional(),
    password: z
      .object({
        current: z.string().min(1, 'is required').max(1024),
        new: z.string().min(8, 'Password must be at least 8 characters').max(1024),
      })
      .strict()
      .optional(),
    // Clients often echo these; they are not changeable and are ignored.
    id: z.unknown().optional(),
    type: z.unknown().optional(),
  })
  .strict();

/** The profile's audience: only the two tiers a person can be shown to. */
function userAudience(raw: string, domain: string): string {
  const v = raw.trim();
  if (v === '' || v === 'public' || v === '@public') return '@public';
  if (v === 'server' || v === '@server' || v === domain || v === `@${domain}`) return `@${domain}`;
  throw new BadRequest(`object.to: must be '@public' or '@${domain}'`);
}

export async function updateUser(ctx: HandlerContext, target: string): Promise<HandlerResult> {
  const { svc, actor } = ctx;
  const domain = svc.config.DOMAIN;
  if (target !== actor.id) {
    if (!(await svc.stores.users.findActiveById(target))) throw new NotFound('User not found');
    throw new NotAuthorized('Only the user can update their own profile');
  }
  const patch = parse(userPatch, ctx.activity.object, 'object');

  const set: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch.profile ?? {}))
    set[`profile.${k}`] = k === 'description' ? sanitize(v as string) : v;
  for (const [k, v] of Object.entries(patch.prefs ?? {})) set[`prefs.${k}`] = v;
  if (patch.to !== undefined) set.to = userAudience(patch.to, domain);
  if (patch.password) {
    const stored = await svc.stores.users.findForLogin({ id: actor.id }, domain);
    if (!(await verifyPassword(patch.password.current, stored?.password)))
      throw new NotAuthorized('object.password.current: does not match the current password');
    set.password = await hashPassword(patch.password.new);
  }
  const profileFiles = fileIdsIn([patch.profile?.icon, patch.profile?.featuredImage]);
  await attachFiles(svc, actor.id, profileFiles, actor.id, 'object.profile');
  const fields = Object.keys(set);
  if (!fields.length) throw new BadRequest('object: nothing to change (profile, prefs, to or password)');

  if (!(await svc.stores.users.findActiveById(actor.id))) throw new NotFound('User not found');
  await svc.stores.users.setFields(actor.id, set);
  const updated = await svc.stores.users.findActiveById(actor.id);
  if (!updated) throw new NotFound('User not found');
  const profile = (updated.profile ?? {}) as { name?: string; icon?: string };
  return {
    result: presentUser(updated, ctx.viewer, domain),
    objectId: actor.id,
    objectType: 'User',
    target: actor.id,
    to: updated.to ?? '@public',
    // Name and icon ride along so consumers can refresh denormalised copies without a read.
    events: [
      domainEvent('user.updated', {
        userId: actor.id,
        fields,
        name: profile.name ?? null,
        icon: profile.icon ?? null,
      }),
    ],
  };
}
