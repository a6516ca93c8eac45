/** /profile: the server's public profile (spec 1.7 hands it to the app): name, rules, sign-up. */
import { Link } from '@tanstack/react-router';
import { useConfig } from '../api/hooks';
import { QueryState } from '../ui/states';

export function AboutPage() {
  const config = useConfig();
  return (
    <QueryState query={config}>
      {(c) => (
        <section className="card">
          <h1>About {c.siteTitle}</h1>
          <p>
            {c.siteTitle} is a social server at <strong>{c.domain}</strong>.{' '}
            {c.registrationIsOpen ? 'Anyone may join.' : 'New members join by invitation.'}
          </p>
          <h2>Rules</h2>
          {c.rules?.length ? (
            <ol>
              {c.rules.map((r) => (
                <li key={r.id}>{r.text}</li>
              ))}
            </ol>
          ) : (
            <p className="state">This server has not published rules.</p>
          )}
          <p>
            <Link to="/pages">Read the server's pages</Link>
          </p>
        </section>
      )}
    </QueryState>
  );
}
