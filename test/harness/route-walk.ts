/**
 * Holds a server's GET /__routes against what it has mounted (spec 4.1). Each listed route is
 * asked with OPTIONS, which Express answers from the router itself, without running a handler
 * (no side effect, no body, no audience check): 200 with an `Allow` header naming the methods
 * mounted at that path, or the service's JSON 404 when nothing is mounted there. Every listed
 * method must be allowed, and every allowed method must be listed.
 */
export interface ListedRoute {
  methods: string[];
  path: string;
}

export interface WalkReport {
  /** Listed, but OPTIONS says no route (or not that method) is mounted there. */
  unmounted: string[];
  /** Mounted (OPTIONS allows it) at a listed path, but not listed. */
  unlisted: string[];
  /** How many listed routes were walked. */
  walked: number;
}

/** Methods Express adds to `Allow` by itself (HEAD with GET) or answers itself. */
const IMPLIED = new Set(['HEAD', 'OPTIONS']);

/** A template (`/users/:id/posts`) made concrete; `:id` after /users is the caller, so guards pass. */
function concrete(path: string, userId: string): string {
  return path
    .replace(/^\/users\/:id(?=\/|$)/, `/users/${encodeURIComponent(userId)}`)
    .replace(/:[A-Za-z_]+/g, 'p1');
}

/** Matches a concrete path against a listed template (params match one segment). */
function matcher(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

export async function listedRoutes(base: string): Promise<ListedRoute[]> {
  const res = await fetch(`${base}/__routes`, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`GET ${base}/__routes: ${res.status}`);
  const body = (await res.json()) as { total: number; routes: ListedRoute[] };
  if (body.total !== body.routes.length)
    throw new Error(`total ${body.total} ≠ ${body.routes.length} routes`);
  return body.routes;
}

/**
 * Walks every route `base` lists. `token` should be an admin's (the admin router's guard runs
 * before its routes, OPTIONS included); `userId` is that admin's id.
 */
export async function walkRoutes(base: string, auth: { token: string; userId: string }): Promise<WalkReport> {
  const routes = (await listedRoutes(base)).filter((r) => r.path !== '/health');
  const byPath = new Map<string, Set<string>>();
  for (const r of routes) {
    const methods = byPath.get(r.path) ?? new Set<string>();
    for (const m of r.methods) methods.add(m.toUpperCase());
    byPath.set(r.path, methods);
  }
  const templates = [...byPath.keys()].map((t) => ({ t, re: matcher(t) }));
  const report: WalkReport = { unmounted: [], unlisted: [], walked: 0 };
  for (const [template, methods] of byPath) {
    const path = concrete(template, auth.userId);
    const res = await fetch(`${base}${path}`, {
      method: 'OPTIONS',
      headers: { accept: 'application/json', authorization: `Bearer ${auth.token}` },
    });
    await res.arrayBuffer();
    report.walked += methods.size;
    const allow = new Set(
      (res.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim().toUpperCase())
        .filter(Boolean),
    );
    for (const m of methods)
      if (res.status !== 200 || !allow.has(m)) report.unmounted.push(`${m} ${template} (${res.status})`);
    // A method mounted at this path must be listed for some template that matches it.
    for (const m of allow) {
      if (IMPLIED.has(m)) continue;
      const listed = templates.some(({ t, re }) => re.test(path) && byPath.get(t)!.has(m));
      if (!listed) report.unlisted.push(`${m} ${template}`);
    }
  }
  return report;
}

/**
 * Routes the spec names (sections 4.1 to 4.5, 5): each must be listed by the server as a whole.
 * A route the listing forgets is otherwise invisible to a walk that starts from the listing.
 */
export const SPEC_ROUTES: readonly string[] = [
  'GET /circles',
  'GET /circles/:id',
  'GET /circles/:id/posts',
  'PATCH /circles/:id/seen',
  'GET /circles/:id/members',
  'GET /pages',
  'GET /pages/:id',
  'GET /notifications',
  'GET /notifications/unread/count',
  'POST /notifications/:notifId/read',
  'POST /notifications/:notifId/unread',
  'POST /notifications/read-all',
  'POST /notifications/:notifId/dismiss',
  'GET /users/:id/notifications',
  'GET /users/:id/notifications/unread/count',
  'POST /users/:id/notifications/read-all',
  'GET /admin/flagged',
  'GET /admin/flagged/:id',
  'PATCH /admin/flagged/:id',
  'POST /admin/invites',
  'GET /admin/invites',
  'GET /admin/invites/:id',
  'DELETE /admin/invites/:id',
  'GET /admin/settings',
  'PATCH /admin/settings',
  'PATCH /admin/settings/:name',
  'GET /admin/system',
  'GET /admin/system/admins',
  'POST /admin/system/admins',
  'DELETE /admin/system/admins/:userId',
  'GET /admin/system/mods',
  'POST /admin/system/mods',
  'DELETE /admin/system/mods/:userId',
  'GET /admin/system/logs',
  'POST /admin/backup',
  'GET /admin/backup',
  'GET /admin/backup/:id',
  'GET /admin/backup/:id/download',
  'DELETE /admin/backup/:id',
  'POST /admin/backup/restore',
  'GET /admin/activities',
  'POST /admin/recommendations',
  'PATCH /admin/recommendations/:id',
  'GET /admin/users',
  'GET /admin/users/:id',
  'DELETE /admin/users/:id',
  'POST /admin/users/:id/restore',
  'POST /register',
  'POST /auth/login',
  'GET /auth/me',
  'GET /auth/verify-email',
  'POST /inbox',
  'POST /outbox',
  'GET /users/:id',
  'GET /groups/:id',
  'GET /bookmarks/:id',
];

/** The spec routes missing from a listing. */
export function missingSpecRoutes(routes: ListedRoute[]): string[] {
  const listed = new Set(routes.flatMap((r) => r.methods.map((m) => `${m.toUpperCase()} ${r.path}`)));
  return SPEC_ROUTES.filter((r) => !listed.has(r));
}
