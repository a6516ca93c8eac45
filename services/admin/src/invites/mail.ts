/**
 * The invitation e-mail of an individual invite. Best effort (spec 4.5): a failure is logged
 * and never fails the request; the admin still gets the invite and its URL.
 */
import { createMailer, type Mailer } from '@agora/common/email';
import type { AdminContext } from '../context';

const mailers = new WeakMap<AdminContext, Mailer>();

function mailerFor(ctx: AdminContext): Mailer {
  let m = mailers.get(ctx);
  if (!m) {
    const from = `noreply@${ctx.config.DOMAIN.replace(/:\d+$/, '')}`;
    m = createMailer({ smtpUrl: ctx.config.SMTP_URL, from, logger: ctx.logger });
    mailers.set(ctx, m);
  }
  return m;
}

interface Invitation {
  id: string;
  email: string;
  url: string;
  note?: string | null | undefined;
  welcomeMessage?: string | null | undefined;
  expiresAt?: Date | null | undefined;
}

export function sendInvitation(ctx: AdminContext, invite: Invitation): void {
  const lines = [
    `You have been invited to join ${ctx.config.DOMAIN}.`,
    '',
    ...(invite.welcomeMessage ? [invite.welcomeMessage, ''] : []),
    ...(invite.note ? [invite.note, ''] : []),
    `Create your account here: ${invite.url}`,
    ...(invite.expiresAt ? [`This invite expires on ${new Date(invite.expiresAt).toISOString()}.`] : []),
  ];
  void Promise.resolve()
    .then(() =>
      mailerFor(ctx).send({
        to: invite.email,
        subject: `Your invitation to ${ctx.config.DOMAIN}`,
        text: lines.join('\n'),
      }),
    )
    .catch((err: unknown) =>
      ctx.logger.warn({ err: (err as Error).message, invite: invite.id }, 'invite email failed'),
    );
}
