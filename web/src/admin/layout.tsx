/** The admin dashboard's frame: for server admins only, with its own navigation. */
import { Link, Outlet } from '@tanstack/react-router';
import { useMe } from '../api/hooks';
import { RequireUser } from '../ui/layout';

const SECTIONS = [
  ['/admin', 'Overview'],
  ['/admin/flags', 'Flags'],
  ['/admin/users', 'Users'],
  ['/admin/content', 'Content'],
  ['/admin/settings', 'Settings'],
  ['/admin/invites', 'Invites'],
  ['/admin/servers', 'Servers'],
  ['/admin/discover', 'Discover'],
  ['/admin/logs', 'Logs'],
  ['/admin/backups', 'Backups'],
] as const;

export function AdminLayout() {
  const me = useMe();
  return (
    <RequireUser>
      {me.data && !me.data.isServerAdmin ? (
        <section className="card">
          <h1>Admins only</h1>
          <p>The dashboard is for the server's administrators.</p>
        </section>
      ) : (
        <div className="admin">
          <nav aria-label="Admin" className="subnav">
            {SECTIONS.map(([to, label]) => (
              <Link key={to} to={to} activeOptions={{ exact: to === '/admin' }}>
                {label}
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
