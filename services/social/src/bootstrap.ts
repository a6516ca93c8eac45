/**
 * First start (decisions.md §3): settings, the server key pair, the server-owned admin and
 * moderator circles, and the admin user. Idempotent and safe when several replicas start at
 * once: every step is a conditional single-document write, and the public key is always
 * derived from whichever private key won.
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import { generateServerKeyPair } from '@agora/common/auth';
import type { SocialContext } from './context';
import { registerUser } from './users/register';

export interface BootstrapOptions {
  /** Standalone mode: with no ADMIN_USERNAME/ADMIN_PASSWORD, create `admin` with a random password. */
  generateAdmin?: boolean;
}

export async function bootstrap(ctx: SocialContext, opts: BootstrapOptions = {}): Promise<void> {
  const { stores, config, logger } = ctx;
  await stores.prepare();
  await stores.settings.ensureDefaults({ domain: config.DOMAIN, siteTitle: 'Agora' });
  await stores.settings.set('domain', config.DOMAIN);
  await stores.settings.set('actorId', `@${config.DOMAIN}`);
  await ensureKeys(ctx);
  const adminCircle = await ensureServerCircle(ctx, 'adminCircle', 'Admins');
  const modCircle = await ensureServerCircle(ctx, 'modCircle', 'Moderators');

  let username = config.ADMIN_USERNAME;
  let password = config.ADMIN_PASSWORD;
  let generated = false;
  if ((!username || !password) && opts.generateAdmin) {
    const circle = await stores.circles.findById(adminCircle);
    if ((circle?.members?.length ?? 0) === 0) {
      username = username ?? 'admin';
      password = randomBytes(12).toString('base64url');
      generated = true;
    }
  }
  if (!username || !password) return;
  if (!(await stores.users.existsByUsername(username, config.DOMAIN))) {
    const res = await registerUser(ctx, { username, password }, { bypassPolicy: true });
    const member = { id: res.record.id, type: 'Person', name: username };
    await stores.circles.addMember(adminCircle, member);
    await stores.circles.addMember(modCircle, member);
    if (generated) {
      logger.warn(
        { username },
        `created admin user "${username}" with password: ${password} (shown once; change it after logging in)`,
      );
    } else {
      logger.info({ username }, 'created admin user');
    }
  }
}

async function ensureKeys(ctx: SocialContext): Promise<void> {
  const { settings } = ctx.stores;
  let priv = await settings.get<string>('privateKey');
  if (!priv) {
    const pair = await generateServerKeyPair();
    priv = (await settings.setIfEmpty('privateKey', pair.privateKey)) as string;
  }
  const pub = createPublicKey(priv).export({ type: 'spki', format: 'pem' }).toString();
  if ((await settings.get<string>('publicKey')) !== pub) await settings.set('publicKey', pub);
}

async function ensureServerCircle(
  ctx: SocialContext,
  setting: 'adminCircle' | 'modCircle',
  label: string,
): Promise<string> {
  const { stores, config } = ctx;
  const current = await stores.settings.get<string>(setting);
  if (current && (await stores.circles.findById(current))) return current;
  const circle = await stores.circles.create({
    name: `Agora ${label}`,
    actorId: `@${config.DOMAIN}`,
    type: 'Circle',
    to: '',
    canReply: '',
    canReact: '',
  });
  if (current) await stores.settings.set(setting, circle.id); // the old circle is gone: replace it
  const winner = (await stores.settings.setIfEmpty(setting, circle.id)) as string;
  if (winner !== circle.id) await ctx.stores.circles.removeCircles([circle.id]);
  return winner;
}
