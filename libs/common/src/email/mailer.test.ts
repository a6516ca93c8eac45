/**
 * The mailer's two modes. Log mode: the message is written to the log (captured through a pino
 * destination stream). SMTP mode: a minimal in-process SMTP server (plain TCP, no TLS) receives
 * what nodemailer sends, so the real SMTP path is exercised without any outside server.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../logger';
import { createMailer, MAIL_LOG_MESSAGE } from './mailer';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) };
  return { lines, logger: createLogger({ level: 'info', service: 'mail-test', destination }) };
}

interface Received {
  envelope: string[];
  data: string;
}

/** Just enough SMTP (RFC 5321) for one client: greeting, EHLO, MAIL, RCPT, DATA, QUIT. */
function fakeSmtp(received: Received[]): Server {
  return createServer((sock) => {
    sock.setEncoding('utf8');
    sock.write('220 fake.test ESMTP\r\n');
    let buf = '';
    let inData = false;
    let current: Received = { envelope: [], data: '' };
    sock.on('data', (chunk: string) => {
      buf += chunk;
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(current);
            current = { envelope: [], data: '' };
            sock.write('250 2.0.0 queued as 1\r\n');
          } else current.data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') sock.write('250 fake.test\r\n');
        else if (verb === 'MAIL' || verb === 'RCPT') {
          current.envelope.push(line);
          sock.write('250 2.1.0 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          sock.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') sock.end('221 bye\r\n');
        else sock.write('250 ok\r\n');
      }
    });
    sock.on('error', () => {});
  });
}

test('without SMTP_URL the message is logged at info level with its text and links', async () => {
  const { lines, logger } = capture();
  const mailer = createMailer({ from: 'noreply@social.test', logger });
  expect(mailer.mode).toBe('log');
  await mailer.send({
    to: 'ann@example.test',
    subject: 'Verify your e-mail',
    text: 'Open https://social.test/verify-email?token=abc123 to verify.',
  });
  const line = lines.find((l) => l.msg === MAIL_LOG_MESSAGE);
  expect(line).toMatchObject({
    level: 30,
    service: 'mail-test',
    mail: { from: 'noreply@social.test', to: 'ann@example.test', subject: 'Verify your e-mail' },
  });
  expect((line?.mail as { text?: string } | undefined)?.text).toContain(
    'https://social.test/verify-email?token=abc123',
  );
});

test('with the log level above info the mail line is dropped (LOG_LEVEL must be info to see mails), and send still resolves', async () => {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'warn',
    service: 'mail-test',
    destination: { write: (s: string) => void lines.push(s) },
  });
  await expect(
    createMailer({ from: 'a@b.test', logger }).send({ to: 'x@y.test', subject: 's', text: 't' }),
  ).resolves.toBeUndefined();
  expect(lines).toHaveLength(0);
});

describe('with SMTP_URL', () => {
  const received: Received[] = [];
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = fakeSmtp(received);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('the message goes out over SMTP and only its subject and recipient are logged', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'noreply@social.test', logger });
    expect(mailer.mode).toBe('smtp');
    await mailer.send({
      to: 'bob@example.test',
      subject: 'Reset your password',
      text: 'Link: https://social.test/reset-password?token=secret1',
      html: '<p>Link</p>',
    });
    mailer.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.envelope).toEqual(['MAIL FROM:<noreply@social.test>', 'RCPT TO:<bob@example.test>']);
    expect(received[0]!.data).toContain('Subject: Reset your password');
    expect(received[0]!.data).toContain('reset-password?token=secret1');
    expect(received[0]!.data).toContain('text/html');
    const sent = lines.find((l) => l.msg === 'email sent');
    expect(sent).toMatchObject({ mail: { to: 'bob@example.test', subject: 'Reset your password' } });
    // The one-time link never reaches the log in SMTP mode.
    expect(JSON.stringify(lines)).not.toContain('secret1');
  });

  test('an unreachable SMTP server rejects the send (it is not silently logged)', async () => {
    const { lines, logger } = capture();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${deadPort}`,
      from: 'noreply@social.test',
      logger,
    });
    await expect(mailer.send({ to: 'c@example.test', subject: 's', text: 't' })).rejects.toThrow();
    mailer.close();
    expect(lines.some((l) => l.msg === MAIL_LOG_MESSAGE)).toBe(false);
  });
});
