/**
 * /admin/invites (spec 4.5; behaviour-notes §2.4): create, list, detail, deactivate.
 * Deactivation keeps the row (and its redemption history) visible to admins.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { INVITE_TYPES, mintId } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import type { AdminContext } from '../context';
import { idString, parseInput as parse } from '@agora/common/validation';
import { sendInvitation } from './mail';

export const createBody = z.object({
  type: z.enum(INVITE_TYPES).default('individual'),
  email: z.email('must be an e-mail address').max(320).optional(),
  maxRedemptions: z.number().int().min(1).max(1_000_000).nullable().optional(),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 timestamp' })
    .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
    .optional(),
  note: z.string().max(500).optional(),
  welcomeMessage: z.string().max(1000).optional(),
});

export const listQuery = z.object({
  type: z.enum(INVITE_TYPES).optional(),
  active: z.enum(['true', 'false']).optional(),
});

type Row = Record<string, unknown>;
const present = ({ _id, __v, ...rest }: Row) => rest;

/** 12 random bytes are exactly 16 base64url characters: unguessable and URL-safe. */
const newCode = () => randomBytes(12).toString('base64url');

export function invitesRouter(ctx: AdminContext): Router {
  const r = Router();
  const invites = ctx.stores.invites;
  const domain = ctx.config.DOMAIN;

  const load = async (rawId: string | undefined) => {
    const id = parse(idString, rawId, 'id');
    const invite = await invites.liveById(id);
    if (!invite) throw new NotFound('Invite not found');
    return { id, invite };
  };

  r.post(
    '/',
    handler(async ({ body, user, set, setStatus }) => {
      const input = parse(createBody, body ?? {}, 'body');
      if (input.type === 'individual' && !input.email)
        throw new BadRequest('body.email: is required for an individual invite');
      const code = newCode();
      const created = await invites.create({
        id: mintId('invite', domain),
        actorId: user!.id,
        server: `@${domain}`,
        type: input.type,
        ...(input.email ? { email: input.email.toLowerCase() } : {}),
        code,
        url: `${ctx.config.publicUrl}/invite/${code}`,
        // An individual invite is single-use; an open one is unlimited unless a limit is given.
        maxRedemptions: input.type === 'individual' ? 1 : (input.maxRedemptions ?? null),
        ...(input.expiresAt ? { expiresAt: new Date(input.expiresAt) } : {}),
        ...(input.note !== undefined ? { note: input.note } : {}),
        ...(input.welcomeMessage !== undefined ? { welcomeMessage: input.welcomeMessage } : {}),
      });
      const invite = created as unknown as Row & { id: string; url: string; email?: string };
      if (input.type === 'individual' && invite.email)
        sendInvitation(ctx, {
          id: invite.id,
          email: invite.email,
          url: invite.url,
          note: input.note,
          welcomeMessage: input.welcomeMessage,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        });
      setStatus(201);
      set('invite', present(invite));
    }),
  );

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const q = parse(listQuery, { type: query.type, active: query.active }, 'query');
      const paging = parsePaging(query);
      const { total, items } = await invites.pageForAdmin(
        { ...(q.type ? { type: q.type } : {}), ...(q.active ? { active: q.active === 'true' } : {}) },
        paging,
      );
      setAll(
        set,
        collectionFor(
          ctx.config.publicUrl,
          req,
          paging,
          total,
          items.map((i) => present(i as unknown as Row)),
        ),
      );
    }),
  );

  r.get(
    '/:id',
    handler(async ({ params, set }) => {
      set('invite', present((await load(params.id)).invite));
    }),
  );

  r.delete(
    '/:id',
    handler(async ({ params, set }) => {
      const { id } = await load(params.id);
      const after = await invites.deactivate(id);
      set('ok', true);
      set('invite', present(after as unknown as Row));
    }),
  );
  return r;
}
