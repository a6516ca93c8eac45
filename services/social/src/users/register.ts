/**
 * Registration (decisions.md §3): one function behind POST /register and the Create-User
 * activity of POST /outbox, with the same checks and the same response. The account is recorded
 * as a Create activity whose outbox row holds `user.registered` (and `invite.redeemed`), so the
 * events reach the broker even when it is away at the time: the relay republishes them.
 */
import { reindexQuietly } from '../search/indexer';
import { z } from 'zod';
import { hashPassword } from '@agora/common/auth';
import { sanitize } from '@agora/common/content';
import {
  DuplicateKeyError,
  USERNAME_RE,
  isReservedUsername,
  userId,
  type ActivityRecord,
  type UserRecord,
} from '@agora/common/db';
import { domainEvent, type DomainEvent } from '@agora/common/messaging';
import { BadRequest, Conflict, NotAuthorized } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { createSystemCircles } from './system-circles';
import { recordWrite } from '../record-write';
import { registeredUser, tokenClaim } from './present';
import { VERIFY_TTL_MS, mintEmailToken } from './tokens';
import { sendBestEffort, verificationMail } from './mail';
import { checkInvite, claimInvite, redeemedEvent, releaseInvite } from '../invites/redeem';
import type { InviteRow } from '../invites/validity';

export const registrationSchema = z.object({
  username: z.string({ error: 'username is required' }).trim().toLowerCase(),
  password: z
    .string({ error: 'password is required' })
    .min(8, 'Password must be at least 8 characters')
    .max(1024),
  email: z.email('email must be an e-mail address').max(320).optional(),
  profile: z
    .object({ name: z.string().max(100).optional(), description: z.string().max(5000).optional() })
    .optional(),
  inviteCode: z.string().max(64).optional(),
  acknowledgedRules: z.array(z.string().max(64)).max(200).optional(),
});
export type RegistrationInput = z.infer<typeof registrationSchema>;

export type RegistrationResult = { record: UserRecord; activity: ActivityRecord } & (
  { kind: 'created'; user: ReturnType<typeof registeredUser>; token: string } | { kind: 'verification' }
);

export function parseRegistration(body: unknown): RegistrationInput {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    throw new BadRequest(issue.message.includes(field) ? issue.message : `${field}: ${issue.message}`);
  }
  if (!USERNAME_RE.test(parsed.data.username)) {
    throw new BadRequest('Username must be 2-32 characters: lower-case letters, digits and underscores');
  }
  return parsed.data;
}

interface Rule {
  id: string;
  text: string;
}

export async function registerUser(
  ctx: SocialContext,
  input: RegistrationInput,
  opts: { bypassPolicy?: boolean } = {},
): Promise<RegistrationResult> {
  const { stores, config } = ctx;
  const domain = config.DOMAIN;
  let invite: InviteRow | undefined;
  if (!opts.bypassPolicy) {
    // The bootstrap admin (bypassPolicy) may be called `admin`; nobody else may take a name that
    // reads as the server speaking.
    if (isReservedUsername(input.username, domain))
      throw new BadRequest(`username: ${input.username} is reserved`);
    const open = await stores.settings.get<boolean>('registrationIsOpen');
    if (open === false && !input.inviteCode)
      throw new NotAuthorized('Registration is invite-only. Please provide an invite code.');
    // A code given while registration is open is checked and redeemed too.
    if (input.inviteCode) invite = await checkInvite(ctx, input.inviteCode, input.email);
  }
  if (await stores.users.existsByUsername(input.username, domain)) throw new Conflict('User already exists');
  const requireVerification =
    !opts.bypassPolicy && (await stores.settings.get<boolean>('requireEmailVerification')) === true;
  if (requireVerification && !input.email) throw new BadRequest('email is required');
  if (input.email && (await stores.users.existsByEmail(input.email)))
    throw new Conflict('Email already registered');
  const rules = ((await stores.settings.get<Rule[]>('rules')) ?? []).filter(
    (r) => r && typeof r.id === 'string',
  );
  if (!opts.bypassPolicy && rules.length) {
    const acked = new Set(input.acknowledgedRules ?? []);
    if (!rules.every((r) => acked.has(r.id)))
      throw new BadRequest('You must acknowledge all server rules to register.');
  }

  const id = userId(input.username, domain);
  // Claimed before the account exists so concurrent registrations cannot overrun the limit;
  // given back below if the account is not created after all.
  if (invite) await claimInvite(ctx, invite, id, input.email);
  const base = config.publicUrl;
  // Only the hash is stored; the clear token leaves in the e-mail below.
  const verification = requireVerification ? mintEmailToken(VERIFY_TTL_MS) : undefined;
  const record = await stores.users
    .create({
      id,
      username: input.username,
      domain,
      server: `@${domain}`,
      originDomain: domain,
      actorId: `${base}/users/${input.username}`,
      url: `${base}/users/${encodeURIComponent(id)}`,
      inbox: `${base}/users/${input.username}/inbox`,
      outbox: `${base}/users/${input.username}/outbox`,
      password: await hashPassword(input.password),
      ...(input.email ? { email: input.email } : {}),
      ...(verification
        ? { emailVerificationToken: verification.hash, emailVerificationExpires: verification.expires }
        : {}),
      // The same sanitising as a profile Update: clients render the description as HTML.
      profile: {
        name: input.profile?.name ?? input.username,
        description: sanitize(input.profile?.description ?? ''),
        urls: [],
      },
      acknowledgedRules: rules.map((r) => ({ id: r.id, text: r.text, acknowledgedAt: new Date() })),
    })
    .catch(async (err: unknown) => {
      if (invite) await releaseInvite(ctx, invite, id);
      // A concurrent registration of the same name (the key) or e-mail (a unique index) loses.
      if (err instanceof DuplicateKeyError) throw new Conflict('User already exists');
      throw err;
    });
  const circles = await createSystemCircles(stores.circles, record);
  await stores.users.setCircles(id, circles);
  const stored = (await stores.users.findById(id))!;
  await reindexQuietly(ctx, id);
  const activity = await recordRegistration(ctx, stored, [
    domainEvent('user.registered', { userId: id, username: input.username }),
    ...(invite ? [redeemedEvent(invite, id)] : []),
  ]);
  if (verification && stored.email) {
    sendBestEffort(ctx, verificationMail(ctx, stored.email, verification.token), 'verification');
    return { kind: 'verification', record: stored, activity };
  }
  return {
    kind: 'created',
    user: registeredUser(stored),
    token: await ctx.tokens.issue(id, tokenClaim(stored)),
    record: stored,
    activity,
  };
}

/**
 * The account's Create activity (the log gets the fact, never the password) with its events in
 * the outbox, then the events published; a publish that fails is the relay's to finish.
 */
function recordRegistration(
  ctx: SocialContext,
  user: UserRecord,
  events: DomainEvent[],
): Promise<ActivityRecord> {
  return recordWrite(
    ctx,
    { type: 'Create', objectType: 'User', actorId: user.id, objectId: user.id, to: '@public' },
    events,
  );
}
