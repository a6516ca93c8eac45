/** /profile: the server's public profile (spec 1.7 hands it to the app): name, rules, sign-up. */
import { Link } from '@tanstack/react-router';
import { useConfig } from '../api/hooks';
import { QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';

export function AboutPage() {
  const { t } = useT();
  const config = useConfig();
  return (
    <QueryState query={config}>
      {(c) => (
        <section className="card">
          <h1>{t('about.title', { site: c.siteTitle })}</h1>
          <p>
            <Rich text={t('about.text', { site: c.siteTitle, domain: c.domain })} parts={[<strong />]} />{' '}
            {c.registrationIsOpen ? t('about.open') : t('about.invite')}
          </p>
          <h2>{t('about.rules')}</h2>
          {c.rules?.length ? (
            <ol>
              {c.rules.map((r) => (
                <li key={r.id}>{r.text}</li>
              ))}
            </ol>
          ) : (
            <p className="state">{t('about.noRules')}</p>
          )}
          <p>
            <Link to="/pages">{t('about.pages')}</Link>
          </p>
        </section>
      )}
    </QueryState>
  );
}
