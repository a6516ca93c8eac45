/**
 * The e-mails the user flows send, and the mailer they go through. The sender is the
 * `adminEmail` setting (an admin can change it at run time) or `noreply@<domain>`; links use
 * PUBLIC_URL. Sending is best effort: a failure is logged and never changes the HTTP answer
 * (the forgot/resend answers are neutral on purpose, and a registration is not undone).
 */
import { createMailer, type Mailer, type MailMessage } from '@agora/common/email';
import type { Runtime } from '@agora/common/runtime';

const mailers = new WeakMap<Runtime, { from: string; mailer: Mailer }>();

async function senderOf(rt: Runtime): Promise<string> {
  const admin = await rt.repos.settings.get<string>('adminEmail');
  if (typeof admin === 'string' && /^[^\s@]+@[^\s@]+$/.test(admin.trim())) return admin.trim();
  return `noreply@${rt.config.DOMAIN.replace(/:\d+$/, '')}`;
}

export async function mailerFor(rt: Runtime): Promise<Mailer> {
  const from = await senderOf(rt);
  const hit = mailers.get(rt);
  if (hit && hit.from === from) return hit.mailer;
  hit?.mailer.close();
  const mailer = createMailer({ smtpUrl: rt.config.SMTP_URL, from, logger: rt.logger });
  mailers.set(rt, { from, mailer });
  return mailer;
}

/** Sends without making the caller wait or fail; errors are logged with the recipient only. */
export function sendBestEffort(rt: Runtime, message: MailMessage, kind: string): void {
  void mailerFor(rt)
    .then((m) => m.send(message))
    .catch((err: unknown) =>
      rt.logger.warn({ err: (err as Error).message, kind, to: message.to }, 'email send failed'),
    );
}

export function verificationMail(rt: Runtime, to: string, token: string): MailMessage {
  const link = `${rt.config.publicUrl}/verify-email?token=${token}`;
  return {
    to,
    subject: `Verify your e-mail address for ${rt.config.DOMAIN}`,
    text: `Welcome to ${rt.config.DOMAIN}!\n\nConfirm your e-mail address by opening this link within 24 hours:\n${link}\n\nIf you did not create an account, ignore this message.`,
  };
}

export function resetMail(rt: Runtime, to: string, token: string): MailMessage {
  const link = `${rt.config.publicUrl}/reset-password?token=${token}`;
  return {
    to,
    subject: `Reset your password on ${rt.config.DOMAIN}`,
    text: `Someone asked to reset the password of your account on ${rt.config.DOMAIN}.\n\nChoose a new password by opening this link within one hour:\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.`,
  };
}
