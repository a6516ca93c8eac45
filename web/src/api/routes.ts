/**
 * Every API route the app calls, as path templates in the server's own `:param` form. The
 * browser test tier checks this list against the running server's `/__routes`
 * (test/browser/api-routes.test.ts), so a renamed or missing route fails a test instead of a
 * screen. Routes whose API is not on main yet are listed in PENDING_ROUTES.
 */
export const ROUTES = {
  config: '/config.json',
  register: '/register',
  login: '/auth/login',
  me: '/auth/me',
  verifyEmail: '/auth/verify-email',
  resendVerification: '/auth/resend-verification',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  invite: '/invites/:code',
  outbox: '/outbox',
  posts: '/posts',
  post: '/posts/:id',
  postReplies: '/posts/:id/replies',
  postReacts: '/posts/:id/reacts',
  users: '/users',
  user: '/users/:id',
  userPosts: '/users/:id/posts',
  userCircles: '/users/:id/circles',
  userGroups: '/users/:id/groups',
  userBookmarks: '/users/:id/bookmarks',
  circles: '/circles',
  circle: '/circles/:id',
  circleMembers: '/circles/:id/members',
  circlePosts: '/circles/:id/posts',
  circleSeen: '/circles/:id/seen',
  groups: '/groups',
  group: '/groups/:id',
  groupMembers: '/groups/:id/members',
  groupPending: '/groups/:id/pending',
  groupPosts: '/groups/:id/posts',
  pages: '/pages',
  page: '/pages/:id',
  bookmarks: '/bookmarks',
  bookmark: '/bookmarks/:id',
  notifications: '/notifications',
  unreadCount: '/notifications/unread/count',
  liveStream: '/notifications/stream',
  notificationRead: '/notifications/:notifId/read',
  notificationsReadAll: '/notifications/read-all',
  notificationDismiss: '/notifications/:notifId/dismiss',
  adminSystem: '/admin/system',
  adminLogs: '/admin/system/logs',
  adminAdmins: '/admin/system/admins',
  adminAdmin: '/admin/system/admins/:userId',
  adminMods: '/admin/system/mods',
  adminMod: '/admin/system/mods/:userId',
  adminFlags: '/admin/flagged',
  adminFlag: '/admin/flagged/:id',
  adminUsers: '/admin/users',
  adminUser: '/admin/users/:id',
  adminUserRestore: '/admin/users/:id/restore',
  adminSettings: '/admin/settings',
  adminSetting: '/admin/settings/:name',
  adminInvites: '/admin/invites',
  adminInvite: '/admin/invites/:id',
  adminServers: '/admin/servers',
  adminServer: '/admin/servers/:domain',
  // Built by other issues (files and search: issue 12; Discover and admin content: issue 11;
  // backups: issue 13).
  files: '/files',
  file: '/files/:id',
  search: '/search',
  discover: '/recommendations',
  adminBackups: '/admin/backup',
  adminBackup: '/admin/backup/:id',
  adminBackupDownload: '/admin/backup/:id/download',
  adminBackupRestore: '/admin/backup/restore',
} as const;

export type RouteName = keyof typeof ROUTES;

/** Not on main yet: the route check expects these to be absent and names any that has landed. */
export const PENDING_ROUTES: readonly RouteName[] = [];

/** The admin content groups of spec 4.5's shared CRUD shape (issue 11). */
export const CONTENT_GROUPS = ['posts', 'circles', 'groups', 'pages', 'recommendations', 'sections'] as const;
export type ContentGroup = (typeof CONTENT_GROUPS)[number];

export function contentPath(group: ContentGroup, id?: string, action?: 'restore'): string {
  const base = `/admin/${group}`;
  if (id === undefined) return base;
  return `${base}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;
}

/** The templates of contentPath, for the route check. */
export const CONTENT_ROUTES = CONTENT_GROUPS.flatMap((g) => [
  `/admin/${g}`,
  `/admin/${g}/:id`,
  `/admin/${g}/:id/restore`,
]);

type ParamsOf<T extends string> = T extends `${string}:${infer P}/${infer Rest}`
  ? P | ParamsOf<`/${Rest}`>
  : T extends `${string}:${infer P}`
    ? P
    : never;

export type Params<N extends RouteName> = [ParamsOf<(typeof ROUTES)[N]>] extends [never]
  ? undefined
  : Record<ParamsOf<(typeof ROUTES)[N]>, string>;

/** The path of a route with its parameters filled in (each one URL-encoded). */
export function pathOf<N extends RouteName>(name: N, params?: Params<N>): string {
  const values = (params ?? {}) as Record<string, string>;
  return ROUTES[name].replace(/:([A-Za-z]+)/g, (_m, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`${name}: missing parameter ${key}`);
    return encodeURIComponent(v);
  });
}
