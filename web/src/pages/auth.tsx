/** Sign up, log in, e-mail verification and password reset. */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { setToken } from '../api/session';
import { useConfig } from '../api/hooks';
import type { SessionUser } from '../api/types';
import { ErrorNote, Loading } from '../ui/states';
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';

type Session = { token: string; user: SessionUser };

function safeNext(next: string | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/';
}

export function LoginPage() {
  const { t } = useT();
  const { next } = useSearch({ from: '/login' });
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => api.post<Session>(pathOf('login'), { username, password }),
    onSuccess: async (s) => {
      setToken(s.token);
      await navigate({ to: safeNext(next) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <section className="card narrow">
      <h1>{t('auth.logIn')}</h1>
      <form onSubmit={submit}>
        <label>
          {t('auth.username')}
          <input
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(e) => setUsername(e.target.value.trim().toLowerCase())}
          />
        </label>
        <label>
          {t('auth.password')}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorNote error={login.error} />
        <button type="submit" disabled={login.isPending}>
          {login.isPending ? t('auth.loggingIn') : t('auth.logIn')}
        </button>
      </form>
      <p>
        <Link to="/forgot-password">{t('auth.forgot')}</Link> ·{' '}
        <Link to="/signup" search={{ invite: '' }}>
          {t('auth.createAccount')}
        </Link>
      </p>
    </section>
  );
}

export function SignupPage() {
  const { t } = useT();
  const { invite } = useSearch({ from: '/signup' });
  const config = useConfig();
  const navigate = useNavigate();
  const [form, setForm] = useState({ username: '', password: '', email: '', name: '', inviteCode: invite });
  const [acked, setAcked] = useState<Set<string>>(new Set());
  const [verifyNotice, setVerifyNotice] = useState<string | null>(null);
  const rules = config.data?.rules ?? [];
  const register = useMutation({
    mutationFn: () =>
      api.post<Session | { requiresVerification: true; message: string }>(pathOf('register'), {
        username: form.username,
        password: form.password,
        ...(form.email ? { email: form.email } : {}),
        ...(form.name ? { profile: { name: form.name } } : {}),
        ...(form.inviteCode ? { inviteCode: form.inviteCode } : {}),
        ...(rules.length ? { acknowledgedRules: [...acked] } : {}),
      }),
    onSuccess: async (out) => {
      if ('token' in out) {
        setToken(out.token);
        await navigate({ to: '/' });
      } else setVerifyNotice(out.message);
    },
  });
  if (config.isPending) return <Loading />;
  const closed = config.data?.registrationIsOpen === false;
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });
  if (verifyNotice)
    return (
      <section className="card narrow">
        <h1>{t('auth.checkEmail')}</h1>
        <p role="status">{verifyNotice}</p>
      </section>
    );
  return (
    <section className="card narrow">
      <h1>{t('auth.createAccount')}</h1>
      {closed ? <p>{t('auth.inviteOnly')}</p> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          register.mutate();
        }}
      >
        <label>
          {t('auth.username')}
          <input
            name="username"
            autoComplete="username"
            required
            pattern="[a-z0-9_]{2,32}"
            aria-describedby="username-help"
            value={form.username}
            onChange={(e) => setForm({ ...form, username: e.target.value.toLowerCase() })}
          />
        </label>
        <small id="username-help">{t('auth.usernameHelp')}</small>
        <label>
          {t('auth.displayName')}
          <input name="name" autoComplete="name" value={form.name} onChange={set('name')} />
        </label>
        <label>
          {config.data?.requireEmailVerification ? t('auth.email') : t('auth.emailOptional')}
          <input
            name="email"
            type="email"
            autoComplete="email"
            required={config.data?.requireEmailVerification === true}
            value={form.email}
            onChange={set('email')}
          />
        </label>
        <label>
          {t('auth.password')}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            aria-describedby="password-help"
            value={form.password}
            onChange={set('password')}
          />
        </label>
        <small id="password-help">{t('auth.passwordHelp')}</small>
        {closed || invite ? (
          <label>
            {t('auth.inviteCode')}
            <input name="inviteCode" required={closed} value={form.inviteCode} onChange={set('inviteCode')} />
          </label>
        ) : null}
        {rules.length ? (
          <fieldset>
            <legend>{t('auth.rules')}</legend>
            {rules.map((r) => (
              <label key={r.id} className="check">
                <input
                  type="checkbox"
                  required
                  checked={acked.has(r.id)}
                  onChange={(e) => {
                    const next = new Set(acked);
                    if (e.target.checked) next.add(r.id);
                    else next.delete(r.id);
                    setAcked(next);
                  }}
                />
                {r.text}
              </label>
            ))}
          </fieldset>
        ) : null}
        <ErrorNote error={register.error} />
        <button type="submit" disabled={register.isPending}>
          {register.isPending ? t('auth.creating') : t('auth.signUp')}
        </button>
      </form>
      <p>
        <Rich text={t('auth.haveAccount')} parts={[<Link to="/login" search={{ next: '/' }} />]} />
      </p>
    </section>
  );
}

export function ForgotPasswordPage() {
  const { t } = useT();
  const [email, setEmail] = useState('');
  const send = useMutation({ mutationFn: () => api.post(pathOf('forgotPassword'), { email }) });
  return (
    <section className="card narrow">
      <h1>{t('auth.resetTitle')}</h1>
      {send.isSuccess ? (
        <p role="status">{t('auth.resetSent')}</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <label>
            {t('auth.email')}
            <input
              type="email"
              required
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <ErrorNote error={send.error} />
          <button type="submit" disabled={send.isPending}>
            {t('auth.sendReset')}
          </button>
        </form>
      )}
    </section>
  );
}

export function ResetPasswordPage() {
  const { t } = useT();
  const { token } = useSearch({ from: '/reset-password' });
  const [password, setPassword] = useState('');
  const reset = useMutation({ mutationFn: () => api.post(pathOf('resetPassword'), { token, password }) });
  return (
    <section className="card narrow">
      <h1>{t('auth.newPasswordTitle')}</h1>
      {reset.isSuccess ? (
        <p role="status">
          <Rich text={t('auth.passwordChanged')} parts={[<Link to="/login" search={{ next: '/' }} />]} />
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            reset.mutate();
          }}
        >
          <label>
            {t('auth.newPassword')}
            <input
              type="password"
              minLength={8}
              required
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          {!token ? <p className="error">{t('auth.noResetToken')}</p> : null}
          <ErrorNote error={reset.error} />
          <button type="submit" disabled={reset.isPending || !token}>
            {t('auth.setPassword')}
          </button>
        </form>
      )}
    </section>
  );
}

export function VerifyEmailPage() {
  const { t } = useT();
  const { token } = useSearch({ from: '/verify-email' });
  const verify = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => api.get<{ token?: string; user?: SessionUser }>(pathOf('verifyEmail'), { token }),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (verify.data?.token) setToken(verify.data.token);
  }, [verify.data]);
  return (
    <section className="card narrow">
      <h1>{t('auth.verifyTitle')}</h1>
      {!token ? <p className="error">{t('auth.noVerifyToken')}</p> : null}
      {verify.isFetching ? <Loading label={t('auth.verifying')} /> : null}
      <ErrorNote error={verify.error} />
      {verify.isSuccess ? (
        <p role="status">
          <Rich text={t('auth.verified')} parts={[<Link to="/" />]} />
        </p>
      ) : null}
    </section>
  );
}
