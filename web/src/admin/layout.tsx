/** The admin dashboard's frame: for server admins only, with its own navigation. */
import { Link, Outlet } from '@tanstack/react-router';
import { useMe } from '../api/hooks';
import { RequireUser } from '../ui/layout';
import { useT } from '../i18n/use-t';

/** Each section and the catalogue key of its name. */
const SECTIONS = [
  ['/admin', 'admin.overview'],
  ['/admin/flags', 'admin.flags'],
  ['/admin/users', 'admin.users'],
  ['/admin/content', 'admin.content'],
  ['/admin/settings', 'admin.settings'],
  ['/admin/invites', 'admin.invites'],
  ['/admin/servers', 'admin.servers'],
  ['/admin/discover', 'admin.discover'],
  ['/admin/logs', 'admin.logs'],
  ['/admin/backups', 'admin.backups'],
] as const;

export function AdminLayout() {
  const { t } = useT();
  const me = useMe();
  return (
    <RequireUser>
      {me.data && !me.data.isServerAdmin ? (
        <section className="card">
          <h1>{t('admin.adminsOnly')}</h1>
          <p>{t('admin.adminsOnlyText')}</p>
        </section>
      ) : (
        <div className="admin">
          <nav aria-label={t('admin.nav')} className="subnav">
            {SECTIONS.map(([to, label]) => (
              <Link key={to} to={to} activeOptions={{ exact: to === '/admin' }}>
                {t(label)}
              </Link>
            ))}
          </nav>
          <div className="admin-body">
            <Outlet />
          </div>
        </div>
      )}
    </RequireUser>
  );
}
