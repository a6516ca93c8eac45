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
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';
import { LanguageSwitch } from './language';

/** How often the unread badge asks the server while the app is open and the live stream is down. */
export const BADGE_POLL_MS = 5_000;
/** While the live stream is up it brings the changes; a slow poll stays as a safety net. */
export const BADGE_LIVE_POLL_MS = 60_000;

function Badge({ siteTitle }: { siteTitle: string }) {
  const { t } = useT();
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
      {t('layout.notifications')}
      {n > 0 ? (
        <span className="badge" data-testid="unread-badge" aria-label={t('layout.unread', { count: n })}>
          {n > 99 ? '99+' : n}
        </span>
      ) : null}
    </Link>
  );
}

export function Layout() {
  const { t } = useT();
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
        ['/', t('layout.home')],
        ['/circles', t('layout.circles')],
        ['/groups', t('layout.groups')],
        ['/pages', t('layout.pages')],
        ['/bookmarks', t('layout.bookmarks')],
        ['/discover', t('layout.discover')],
        ['/search', t('layout.search')],
      ]
    : [
        ['/', t('layout.home')],
        ['/discover', t('layout.discover')],
        ['/pages', t('layout.pages')],
        ['/groups', t('layout.groups')],
      ];
  return (
    <>
      <a className="skip" href="#main">
        {t('layout.skip')}
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
          {t('layout.menu')}
        </button>
        <nav
          id="main-nav"
          aria-label={t('layout.mainNav')}
          className={open ? 'open' : ''}
          onClick={() => setOpen(false)}
        >
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
                {t('layout.profile')}
              </Link>
              <Link to="/settings" className="nav-link">
                {t('layout.settings')}
              </Link>
              {user.isServerAdmin ? (
                <Link to="/admin" className="nav-link">
                  {t('layout.admin')}
                </Link>
              ) : null}
              <button type="button" className="link-button nav-link" onClick={() => setToken(null)}>
                {t('layout.logOut')}
              </button>
            </>
          ) : (
            <>
              <Link to="/login" search={{ next: path }} className="nav-link">
                {t('layout.logIn')}
              </Link>
              <Link to="/signup" search={{ invite: '' }} className="nav-link">
                {t('layout.signUp')}
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
        <LanguageSwitch />
        <p className="meta">
          <Rich text={t('layout.shortcutsHint')} parts={[<kbd />]} />
        </p>
      </footer>
      <Shortcuts />
    </>
  );
}

/** Screens for signed-in users only. */
export function RequireUser({ children }: { children: ReactNode }) {
  const { t } = useT();
  const me = useMe();
  const path = useRouterState({ select: (s) => s.location.href });
  if (!me.data) {
    if (me.isFetching) return null;
    return (
      <section className="card">
        <h1>{t('layout.signInRequired')}</h1>
        <p>
          <Rich
            text={t('layout.signInToSee')}
            parts={[
              <Link to="/login" search={{ next: path }} />,
              <Link to="/signup" search={{ invite: '' }} />,
            ]}
          />
        </p>
      </section>
    );
  }
  return <>{children}</>;
}
