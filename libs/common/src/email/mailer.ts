/**
 * Outbound e-mail (verification, password reset, invites). With `SMTP_URL` set, messages go
 * through nodemailer's SMTP transport; without it they are written to the log at info level
 * (subject, recipient and the plain text with its links), the documented behaviour for local
 * use and tests. A send failure rejects: callers decide whether it is fatal (it rarely is).
 */
import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** `smtp` when messages leave the process, `log` when they are only logged. */
  readonly mode: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string | undefined;
  from: string;
  logger: Logger;
}

/** The log line's message, fixed so operators (and tests) can find mails in the log. */
export const MAIL_LOG_MESSAGE = 'email not sent (no SMTP_URL): logged instead';

export function createMailer({ smtpUrl, from, logger }: MailerOptions): Mailer {
  if (!smtpUrl) {
    return {
      mode: 'log',
      send({ to, subject, text }) {
        logger.info({ mail: { from, to, subject, text } }, MAIL_LOG_MESSAGE);
        return Promise.resolve();
      },
      close() {},
    };
  }
  // nodemailer is loaded with the first message: most processes never send one (~12 MB).
  let transport: Transporter | undefined;
  const open = async () => (transport ??= (await import('nodemailer')).createTransport(smtpUrl));
  return {
    mode: 'smtp',
    async send({ to, subject, text, html }) {
      const info = await (await open()).sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
      // The body carries one-time links: never logged once it really leaves the process.
      logger.info({ mail: { to, subject, messageId: info.messageId } }, 'email sent');
    },
    close() {
      transport?.close();
    },
  };
}
