/**
 * The route tree (TanStack Router, code-based and fully typed). Every deep link the gateway hands
 * to the app (spec 1.7 segments plus the app's own pages) resolves here on reload. The admin
 * dashboard is split into its own chunks, loaded on first visit.
 */
import type { ReactNode } from 'react';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Link } from '@tanstack/react-router';
import { Layout, RequireUser } from './ui/layout';
import { ForgotPasswordPage, LoginPage, ResetPasswordPage, SignupPage, VerifyEmailPage } from './pages/auth';
import { HomePage } from './pages/home';
import { CirclePage, CirclesPage } from './pages/circles';
import { PostPage } from './pages/post';
import { ProfilePage } from './pages/users';
import { GroupPage, GroupsPage } from './pages/groups';
import { BookmarksPage, PageDetail, PagesPage } from './pages/library';
import { BookmarkPage } from './pages/bookmark';
import { NotificationsPage } from './pages/notifications';
import { DiscoverPage, SearchPage } from './pages/discover';
import { SettingsPage } from './pages/settings';
import { AboutPage } from './pages/about';
import { useT } from './i18n/use-t';
import { Rich } from './i18n/rich';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function NotFound() {
  const { t } = useT();
  return (
    <section className="card">
      <h1>{t('layout.notFound')}</h1>
      <p>
        <Rich text={t('layout.notFoundText')} parts={[<Link to="/" />]} />
      </p>
    </section>
  );
}

const root = createRootRoute({ component: Layout, notFoundComponent: NotFound });
const route = <P extends string>(path: P, component: () => ReactNode) =>
  createRoute({ getParentRoute: () => root, path, component });
const member = (Screen: () => ReactNode) =>
  function MemberScreen() {
    return (
      <RequireUser>
        <Screen />
      </RequireUser>
    );
  };

const login = createRoute({
  getParentRoute: () => root,
  path: '/login',
  component: LoginPage,
  validateSearch: (s: Record<string, unknown>) => ({ next: str(s.next) || '/' }),
});
const signup = createRoute({
  getParentRoute: () => root,
  path: '/signup',
  component: SignupPage,
  validateSearch: (s: Record<string, unknown>) => ({ invite: str(s.invite) }),
});
const reset = createRoute({
  getParentRoute: () => root,
  path: '/reset-password',
  component: ResetPasswordPage,
  validateSearch: (s: Record<string, unknown>) => ({ token: str(s.token) }),
});
const verify = createRoute({
  getParentRoute: () => root,
  path: '/verify-email',
  component: VerifyEmailPage,
  validateSearch: (s: Record<string, unknown>) => ({ token: str(s.token) }),
});
const home = createRoute({
  getParentRoute: () => root,
  path: '/',
  component: HomePage,
  // The timeline shown is in the address (`?feed=server|public`); Following has none.
  validateSearch: (s: Record<string, unknown>): { feed?: 'server' | 'public' } =>
    s.feed === 'server' || s.feed === 'public' ? { feed: s.feed } : {},
});
const search = createRoute({
  getParentRoute: () => root,
  path: '/search',
  component: SearchPage,
  validateSearch: (s: Record<string, unknown>) => ({ q: str(s.q), type: str(s.type) }),
});

const bookmarks = createRoute({
  getParentRoute: () => root,
  path: '/bookmarks',
  component: member(BookmarksPage),
  // The open folder is in the address, so Back, reload and a shared link keep it.
  validateSearch: (s: Record<string, unknown>): { folder?: string } =>
    str(s.folder) ? { folder: str(s.folder) } : {},
});

const admin = createRoute({
  getParentRoute: () => root,
  path: '/admin',
  component: lazyRouteComponent(() => import('./admin/layout'), 'AdminLayout'),
});
const adminPage = <P extends string>(
  path: P,
  load: () => Promise<Record<string, () => ReactNode>>,
  name: string,
) => createRoute({ getParentRoute: () => admin, path, component: lazyRouteComponent(load, name) });

const routeTree = root.addChildren([
  home,
  login,
  signup,
  route('/forgot-password', ForgotPasswordPage),
  reset,
  verify,
  route('/circles', member(CirclesPage)),
  route('/circles/$id', member(CirclePage)),
  route('/posts/$id', PostPage),
  route('/users/$id', ProfilePage),
  route('/groups', GroupsPage),
  route('/groups/$id', GroupPage),
  route('/pages', PagesPage),
  route('/pages/$slug', PageDetail),
  bookmarks,
  route('/bookmarks/$id', BookmarkPage),
  route('/notifications', member(NotificationsPage)),
  route('/discover', DiscoverPage),
  search,
  route('/settings', member(SettingsPage)),
  route('/profile', AboutPage),
  admin.addChildren([
    adminPage('/', () => import('./admin/overview'), 'OverviewPage'),
    adminPage('/flags', () => import('./admin/flags'), 'FlagsPage'),
    adminPage('/users', () => import('./admin/users'), 'UsersPage'),
    adminPage('/content', () => import('./admin/content'), 'ContentPage'),
    adminPage('/settings', () => import('./admin/settings'), 'SettingsAdminPage'),
    adminPage('/invites', () => import('./admin/invites'), 'InvitesPage'),
    adminPage('/servers', () => import('./admin/servers'), 'ServersPage'),
    adminPage('/discover', () => import('./admin/discover'), 'DiscoverAdminPage'),
    adminPage('/logs', () => import('./admin/logs'), 'LogsPage'),
    adminPage('/backups', () => import('./admin/backups'), 'BackupsPage'),
  ]),
]);

export const router = createRouter({ routeTree, scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
