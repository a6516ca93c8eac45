/**
 * The actions on a post or reply card: share, boost, bookmark, and for its author edit and delete
 * (with a confirmation). Bookmarking is optimistic and rolls back with a message when refused.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useMe, useOutbox } from '../api/hooks';
import { ErrorNote } from './states';
import { WarningFields } from './warning-fields';
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';

/** Shares the object's address (the system share sheet, or the clipboard, or shows it). */
export function ShareButton({ path, title }: { path: string; title: string }) {
  const { t } = useT();
  const [shown, setShown] = useState<'copied' | 'show' | null>(null);
  const url = `${location.origin}${path}`;
  const share = async () => {
    try {
      if (typeof navigator.share === 'function') {
        await navigator.share({ url, title });
        return;
      }
      await navigator.clipboard.writeText(url);
      setShown('copied');
    } catch {
      setShown('show');
    }
  };
  return (
    <>
      <button type="button" className="link-button" onClick={() => void share()}>
        {t('post.share')}
      </button>
      {shown === 'copied' ? <span role="status">{t('post.linkCopied')}</span> : null}
      {shown === 'show' ? (
        <label className="share-link">
          {t('post.linkToShare')}
          <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        </label>
      ) : null}
    </>
  );
}

/**
 * Boosts a public post (ADR 0024: a share post in the booster's followers' timelines, an
 * Announce to ActivityPub servers); Undo takes the share back. Asking twice gives the same share.
 */
export function BoostButton({ id, to }: { id: string; to?: string | null | undefined }) {
  const { t } = useT();
  const me = useMe();
  const send = useOutbox([['timeline'], ['posts']]);
  const [share, setShare] = useState<string | null>(null);
  if (!me.data || to !== '@public') return null;
  const boost = () =>
    send.mutate(
      { type: 'Announce', object: id },
      { onSuccess: (res) => setShare(res.createdId ?? String(res.result.id)) },
    );
  const undo = () => {
    if (share) send.mutate({ type: 'Undo', object: share }, { onSuccess: () => setShare(null) });
  };
  return (
    <>
      {share ? (
        <>
          <span role="status">{t('post.boosted')}</span>
          <button type="button" className="link-button" onClick={undo} disabled={send.isPending}>
            {t('post.undoBoost')}
          </button>
        </>
      ) : (
        <button type="button" className="link-button" onClick={boost} disabled={send.isPending}>
          {t('post.boost')}
        </button>
      )}
      <ErrorNote error={send.error} title={t('post.boostRefused')} retry={share ? undo : boost} />
    </>
  );
}

export function BookmarkButton({ target, title }: { target: string; title: string }) {
  const { t } = useT();
  const me = useMe();
  const save = useOutbox([['bookmarks']]);
  // Optimistic: shown as saved at once, rolled back if the server refuses.
  const [saved, setSaved] = useState(false);
  if (!me.data) return null;
  const run = () => {
    setSaved(true);
    save.mutate(
      {
        type: 'Create',
        objectType: 'Bookmark',
        to: me.data.id,
        object: { type: 'Bookmark', target, title },
      },
      { onError: () => setSaved(false) },
    );
  };
  return (
    <>
      {saved ? (
        <span role="status">
          <Rich text={t('post.bookmarked')} parts={[<Link to="/bookmarks" />]} />
        </span>
      ) : (
        <button type="button" className="link-button" onClick={run} disabled={save.isPending}>
          {t('post.bookmark')}
        </button>
      )}
      <ErrorNote error={save.error} title={t('post.bookmarkNotSaved')} retry={run} />
    </>
  );
}

/** Edit and delete, for the author of a post or a reply. */
export function OwnerActions({
  id,
  authorId,
  source,
  contentWarning,
  sensitive,
  what,
  onDeleted,
}: {
  id: string;
  authorId: string | null | undefined;
  source: string | undefined;
  contentWarning?: string | null;
  sensitive?: boolean | null;
  what: 'post' | 'reply';
  onDeleted?: () => void;
}) {
  const { t } = useT();
  const me = useMe();
  const qc = useQueryClient();
  const change = useOutbox();
  const [mode, setMode] = useState<'idle' | 'edit' | 'confirm'>('idle');
  const [text, setText] = useState(source ?? '');
  const [warning, setWarning] = useState(contentWarning ?? '');
  const [isSensitive, setSensitive] = useState(sensitive === true);
  if (!me.data || !authorId || me.data.id !== authorId) return null;
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['post'] }),
      qc.invalidateQueries({ queryKey: ['timeline'] }),
      qc.invalidateQueries({ queryKey: ['posts'] }),
    ]);
  const saveEdit = () =>
    change.mutate(
      // '' removes a warning: an Update names the warning, so what the form shows is what is kept.
      // A reply's box has no media, so its sensitivity is left as it is.
      {
        type: 'Update',
        target: id,
        object: {
          source: text,
          contentWarning: warning.trim(),
          ...(what === 'post' ? { sensitive: isSensitive } : {}),
        },
      },
      { onSuccess: () => void refresh().then(() => setMode('idle')) },
    );
  const remove = () =>
    change.mutate(
      { type: 'Delete', target: id },
      {
        onSuccess: () => {
          setMode('idle');
          onDeleted?.();
          void refresh();
        },
      },
    );
  return (
    <div className="owner-actions">
      {mode === 'idle' ? (
        <>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setText(source ?? '');
              setWarning(contentWarning ?? '');
              setSensitive(sensitive === true);
              setMode('edit');
            }}
          >
            {t('post.edit')}
          </button>
          <button type="button" className="link-button" onClick={() => setMode('confirm')}>
            {t('post.delete')}
          </button>
        </>
      ) : null}
      {mode === 'edit' ? (
        <form
          className="inline-form"
          aria-label={what === 'post' ? t('post.editPost') : t('post.editReply')}
          onSubmit={(e) => {
            e.preventDefault();
            saveEdit();
          }}
        >
          <label>
            {what === 'post' ? t('post.postText') : t('post.replyText')}
            <textarea rows={3} required value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <WarningFields
            warning={warning}
            sensitive={isSensitive}
            onWarning={setWarning}
            onSensitive={what === 'post' ? setSensitive : undefined}
          />
          <button type="submit" disabled={change.isPending}>
            {t('common.save')}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setMode('idle')}>
            {t('common.cancel')}
          </button>
        </form>
      ) : null}
      {mode === 'confirm' ? (
        <div
          role="group"
          aria-label={what === 'post' ? t('post.confirmPost') : t('post.confirmReply')}
          className="confirm"
        >
          <p>{what === 'post' ? t('post.confirmPostText') : t('post.confirmReplyText')}</p>
          <button type="button" className="danger" onClick={remove} disabled={change.isPending}>
            {t('post.yesDelete')}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setMode('idle')}>
            {t('post.keepIt')}
          </button>
        </div>
      ) : null}
      <ErrorNote error={change.error} title={t('common.notChanged')} />
    </div>
  );
}
