import express from 'express';
import { listen } from './server';
import { handler } from './handler';
import { errorMiddleware } from './errors-mw';
import { createLogger } from '../logger';

test('handler conventions of spec 1.4 and the auth gate of spec 5.3', async () => {
  const app = express();
  app.use(express.json());
  app.use((req, _res, next) => {
    req.auth = req.headers['x-test-user']
      ? { user: { id: '@u@d', username: 'u', isServerAdmin: false, isModerator: false, record: {} } }
      : {};
    next();
  });
  app.get(
    '/a',
    handler(({ set, query, params, body }) => {
      set('error', '');
      set('echo', { query, params, body });
    }),
  );
  app.post(
    '/b',
    handler(({ set, setStatus, user }) => {
      setStatus(201);
      set('user', user?.id);
    }),
  );
  app.post(
    '/open',
    handler(({ set }) => set('ok', true), { allowUnauth: true }),
  );
  app.get(
    '/boom',
    handler(() => {
      throw new Error('internal detail');
    }),
  );
  app.use(errorMiddleware(createLogger({ level: 'silent', service: 't' })));
  const srv = await listen(app, 0);
  try {
    const a = await fetch(`${srv.url}/a`).then(async (r) => [r.status, await r.json()]);
    expect(a).toEqual([200, { echo: { query: {}, params: {}, body: {} } }]);
    expect((await fetch(`${srv.url}/b`, { method: 'POST' })).status).toBe(401);
    expect(await (await fetch(`${srv.url}/b`, { method: 'POST' })).json()).toEqual({ error: 'Unauthorized' });
    const b = await fetch(`${srv.url}/b`, { method: 'POST', headers: { 'x-test-user': '1' } });
    expect([b.status, await b.json()]).toEqual([201, { user: '@u@d' }]);
    expect((await fetch(`${srv.url}/open`, { method: 'POST' })).status).toBe(200);
    const boom = await fetch(`${srv.url}/boom`);
    const body = (await boom.json()) as Record<string, unknown>;
    expect(boom.status).toBe(500);
    expect(body.error).toBe('Internal server error');
    expect(JSON.stringify(body)).not.toMatch(/internal detail|at /);
  } finally {
    await srv.close();
  }
});
