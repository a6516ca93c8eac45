/**
 * GET /__routes on the standalone server (spec 4.1; issue 21, item 3): through the gateway,
 * every listed route is mounted, every method mounted at a listed path is listed, and every
 * route the spec names is listed (test/harness/route-walk.ts). The compiled processes are held
 * to the same in test/processes/routes.test.ts.
 */
import { listedRoutes, missingSpecRoutes, walkRoutes } from '../harness/route-walk';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;

beforeAll(async () => {
  server = await bootServer();
});
afterAll(() => server?.close());

test('the listing and the mounted routes agree, and the spec routes are listed', async () => {
  const login = await client(server.url).post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  expect(login.status).toBe(200);
  const routes = await listedRoutes(server.url);
  expect(missingSpecRoutes(routes)).toEqual([]);
  const report = await walkRoutes(server.url, { token: login.body.token, userId: login.body.user.id });
  expect(report.walked).toBe(routes.filter((r) => r.path !== '/health').length);
  expect(report).toMatchObject({ unmounted: [], unlisted: [] });
});
