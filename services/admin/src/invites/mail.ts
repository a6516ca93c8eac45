/**
 * The invitation e-mail of an individual invite. Best effort (spec 4.5): a failure is logged
 * and never fails the request; the admin still gets the invite and its URL.
 */
import { createMailer, type Mailer } from '@agora/common/email';
import type { Runtime } from '@agora/common/runtime';

const mailers = new WeakMap<Runtime, Mailer>();

function mailerFor(rt: Runtime): Mailer {
  let m = mailers.get(rt);
  if (!m) {
    const from = `noreply@${rt.config.DOMAIN.replace(/:\d+$/, '')}`;
    m = createMailer({ smtpUrl: rt.config.SMTP_URL, from, logger: rt.logger });
    mailers.set(rt, m);
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

export function sendInvitation(rt: Runtime, invite: Invitation): void {
  const lines = [
    `You have been invited to join ${rt.config.DOMAIN}.`,
    '',
    ...(invite.welcomeMessage ? [invite.welcomeMessage, ''] : []),
    ...(invite.note ? [invite.note, ''] : []),
    `Create your account here: ${invite.url}`,
    ...(invite.expiresAt ? [`This invite expires on ${new Date(invite.expiresAt).toISOString()}.`] : []),
  ];
  void Promise.resolve()
    .then(() =>
      mailerFor(rt).send({
        to: invite.email,
        subject: `Your invitation to ${rt.config.DOMAIN}`,
        text: lines.join('\n'),
      }),
    )
    .catch((err: unknown) =>
      rt.logger.warn({ err: (err as Error).message, invite: invite.id }, 'invite email failed'),
    );
}
