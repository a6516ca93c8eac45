import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from './ferretdb';

const listen = (port: number) =>
  new Promise<() => Promise<void>>((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(port, '127.0.0.1', () => res(() => new Promise((r) => s.close(() => r()))));
  });

test('a free port is bindable and outside the range the kernel gives outgoing connections', async () => {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  for (const port of ports) {
    expect(port).toBeLessThan(low!);
    const close = await listen(port);
    await close();
  }
});
