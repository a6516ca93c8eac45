/**
 * Keyboard shortcuts and their help sheet (`?`). Two-key shortcuts start with `g` ("go to").
 * None fires while typing in a field or with Ctrl, Alt or ⌘ held; Escape closes the sheet (the
 * native modal dialog's own behaviour, which also gives focus back).
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useT } from '../i18n/use-t';

/** How long `g` waits for its second key. */
const SEQUENCE_MS = 1_500;

/** Each shortcut and the catalogue key of what it does. */
export const SHORTCUTS: Array<[keys: string, what: string]> = [
  ['g h', 'shortcuts.home'],
  ['g n', 'shortcuts.notifications'],
  ['g c', 'shortcuts.circles'],
  ['g g', 'shortcuts.groups'],
  ['g b', 'shortcuts.bookmarks'],
  ['g d', 'shortcuts.discover'],
  ['g s', 'shortcuts.settings'],
  ['n', 'shortcuts.compose'],
  ['/', 'shortcuts.search'],
  ['?', 'shortcuts.help'],
  ['Escape', 'shortcuts.escape'],
];

const GO: Record<string, string> = {
  h: '/',
  n: '/notifications',
  c: '/circles',
  g: '/groups',
  b: '/bookmarks',
  d: '/discover',
  s: '/settings',
};

/** Typing in a field (or in anything editable) is never a shortcut. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Focuses the element once the new screen shows it (a navigation renders it a moment later). */
function focusWhenShown(selector: string, tries = 40): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) el.focus();
  else if (tries > 0) setTimeout(() => focusWhenShown(selector, tries - 1), 50);
}

export function Shortcuts() {
  const { t } = useT();
  const navigate = useNavigate();
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let pendingG = 0;
    const go = async (to: string, focus?: string) => {
      if (router.state.location.pathname !== to) await navigate({ to });
      if (focus) focusWhenShown(focus);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (dialog.current?.open) return;
      const afterG = Date.now() - pendingG < SEQUENCE_MS;
      pendingG = 0;
      if (afterG && GO[e.key]) {
        e.preventDefault();
        void go(GO[e.key]!);
      } else if (e.key === 'g') pendingG = Date.now();
      else if (e.key === '?') {
        e.preventDefault();
        setOpen(true);
      } else if (e.key === 'n') {
        e.preventDefault();
        void go('/', 'form.compose textarea');
      } else if (e.key === '/') {
        e.preventDefault();
        void go('/search', 'main input[type="search"]');
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate, router]);
  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="shortcuts"
      aria-labelledby="shortcuts-h"
      onClose={() => setOpen(false)}
      data-testid="shortcuts"
    >
      {open ? (
        <>
          <h2 id="shortcuts-h">{t('shortcuts.title')}</h2>
          <dl>
            {SHORTCUTS.map(([keys, what]) => (
              <div key={keys}>
                <dt>
                  {keys.split(' ').map((k, i) => (
                    <span key={i}>
                      {i ? t('shortcuts.then') : null}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{t(what)}</dd>
              </div>
            ))}
          </dl>
          <p className="meta">{t('shortcuts.typing')}</p>
          <button type="button" onClick={() => dialog.current?.close()}>
            {t('common.close')}
          </button>
        </>
      ) : null}
    </dialog>
  );
}
