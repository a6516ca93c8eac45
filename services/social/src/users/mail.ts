/**
 * The e-mails the user flows send, and the mailer they go through. The sender is the
 * `adminEmail` setting (an admin can change it at run time) or `noreply@<domain>`; links use
 * PUBLIC_URL. Sending is best effort: a failure is logged and never changes the HTTP answer
 * (the forgot/resend answers are neutral on purpose, and a registration is not undone).
 */
import { createMailer, type Mailer, type MailMessage } from '@agora/common/email';
import type { SocialContext } from '../context';

const mailers = new WeakMap<SocialContext, { from: string; mailer: Mailer }>();

async function senderOf(ctx: SocialContext): Promise<string> {
  const admin = await ctx.stores.settings.get<string>('adminEmail');
  if (typeof admin === 'string' && /^[^\s@]+@[^\s@]+$/.test(admin.trim())) return admin.trim();
  return `noreply@${ctx.config.DOMAIN.replace(/:\d+$/, '')}`;
}

export async function mailerFor(ctx: SocialContext): Promise<Mailer> {
  const from = await senderOf(ctx);
  const hit = mailers.get(ctx);
  if (hit && hit.from === from) return hit.mailer;
  hit?.mailer.close();
  const mailer = createMailer({ smtpUrl: ctx.config.SMTP_URL, from, logger: ctx.logger });
  mailers.set(ctx, { from, mailer });
  return mailer;
}

/** Sends without making the caller wait or fail; errors are logged with the recipient only. */
export function sendBestEffort(ctx: SocialContext, message: MailMessage, kind: string): void {
  void mailerFor(ctx)
    .then((m) => m.send(message))
    .catch((err: unknown) =>
      ctx.logger.warn({ err: (err as Error).message, kind, to: message.to }, 'email send failed'),
    );
}

export function verificationMail(ctx: SocialContext, to: string, token: string): MailMessage {
  const link = `${ctx.config.publicUrl}/verify-email?token=${token}`;
  return {
    to,
    subject: `Verify your e-mail address for ${ctx.config.DOMAIN}`,
    text: `Welcome to ${ctx.config.DOMAIN}!\n\nConfirm your e-mail address by opening this link within 24 hours:\n${link}\n\nIf you did not create an account, ignore this message.`,
  };
}

export function resetMail(ctx: SocialContext, to: string, token: string): MailMessage {
  const link = `${ctx.config.publicUrl}/reset-password?token=${token}`;
  return {
    to,
    subject: `Reset your password on ${ctx.config.DOMAIN}`,
    text: `Someone asked to reset the password of your account on ${ctx.config.DOMAIN}.\n\nChoose a new password by opening this link within one hour:\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.`,
  };
}
