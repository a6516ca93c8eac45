/** The frame of every screen: skip link, header with navigation and the notification badge. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { setToken } from '../api/session';
import { useConfig, useMe } from '../api/hooks';
import { OfflineBanner } from './offline';
import { ThemeSwitch } from './theme';
import { Shortcuts } from './shortcuts';
import { useLiveConnected } from '../api/live';
import { LiveUpdates } from './live';

/** How often the unread badge asks the server while the app is open and the live stream is down. */
export const BADGE_POLL_MS = 5_000;
/** While the live stream is up it brings the changes; a slow poll stays as a safety net. */
export const BADGE_LIVE_POLL_MS = 60_000;

function Badge({ siteTitle }: { siteTitle: string }) {
  const live = useLiveConnected();
  const count = useQuery({
    queryKey: ['notifications', 'unread'],
    queryFn: () => api.get<{ count: number }>(pathOf('unreadCount')),
    // The live stream (ui/live.tsx) refreshes it on every notification; without the stream, poll,
    // but only while the tab is visible, and ask again at once when the person comes back to it.
    refetchInterval: live ? BADGE_LIVE_POLL_MS : BADGE_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
  });
  const n = count.data?.count ?? 0;
  // The count in the tab title, so a background tab says there is something new.
  useEffect(() => {
    document.title = n > 0 ? `(${n > 99 ? '99+' : n}) ${siteTitle}` : siteTitle;
    return () => {
      document.title = siteTitle;
    };
  }, [n, siteTitle]);
  return (
    <Link to="/notifications" className="nav-link" data-testid="nav-notifications">
      Notifications
      {n > 0 ? (
        <span className="badge" data-testid="unread-badge" aria-label={`${n} unread`}>
          {n > 99 ? '99+' : n}
        </span>
      ) : null}
    </Link>
  );
}

export function Layout() {
  const config = useConfig();
  const me = useMe();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // Escape closes the phone menu and gives focus back to its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const path = useRouterState({ select: (s) => s.location.pathname });
  const user = me.data;
  const title = config.data?.siteTitle ?? 'Agora';
  const links: Array<[string, ReactNode]> = user
    ? [
        ['/', 'Home'],
        ['/circles', 'Circles'],
        ['/groups', 'Groups'],
        ['/pages', 'Pages'],
        ['/bookmarks', 'Bookmarks'],
        ['/discover', 'Discover'],
        ['/search', 'Search'],
      ]
    : [
        ['/', 'Home'],
        ['/discover', 'Discover'],
        ['/pages', 'Pages'],
        ['/groups', 'Groups'],
      ];
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          {title}
        </Link>
        <button
          ref={toggle}
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
        <nav id="main-nav" aria-label="Main" className={open ? 'open' : ''} onClick={() => setOpen(false)}>
          {links.map(([to, label]) => (
            <Link key={to} to={to} className="nav-link" activeOptions={{ exact: to === '/' }}>
              {label}
            </Link>
          ))}
          {user ? (
            <>
              <LiveUpdates />
              <Badge siteTitle={title} />
              <Link to="/users/$id" params={{ id: user.id }} className="nav-link">
                Profile
              </Link>
              <Link to="/settings" className="nav-link">
                Settings
              </Link>
              {user.isServerAdmin ? (
                <Link to="/admin" className="nav-link">
                  Admin
                </Link>
              ) : null}
              <button type="button" className="link-button nav-link" onClick={() => setToken(null)}>
                Log out
              </button>
            </>
          ) : (
            <>
              <Link to="/login" search={{ next: path }} className="nav-link">
                Log in
              </Link>
              <Link to="/signup" search={{ invite: '' }} className="nav-link">
                Sign up
              </Link>
            </>
          )}
        </nav>
      </header>
      <OfflineBanner />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="foot">
        <p>
          {title} · {config.data?.domain ?? ''}
        </p>
        <ThemeSwitch />
        <p className="meta">
          Press <kbd>?</kbd> for keyboard shortcuts.
        </p>
      </footer>
      <Shortcuts />
    </>
  );
}

/** Screens for signed-in users only. */
export function RequireUser({ children }: { children: ReactNode }) {
  const me = useMe();
  const path = useRouterState({ select: (s) => s.location.href });
  if (!me.data) {
    if (me.isFetching) return null;
    return (
      <section className="card">
        <h1>Sign in required</h1>
        <p>
          <Link to="/login" search={{ next: path }}>
            Log in
          </Link>{' '}
          or{' '}
          <Link to="/signup" search={{ invite: '' }}>
            create an account
          </Link>{' '}
          to see this page.
        </p>
      </section>
    );
  }
  return <>{children}</>;
}
