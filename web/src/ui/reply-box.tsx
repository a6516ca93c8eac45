/**
 * A reply form (POST /outbox Reply) with an optional content warning: the text stays when the
 * server refuses it.
 */
import { useState } from 'react';
import { useOutbox } from '../api/hooks';
import { ErrorNote } from './states';
import { WarningFields } from './warning-fields';
import { useT } from '../i18n/use-t';

export function ReplyBox({
  to,
  label,
  onDone,
}: {
  to: string;
  label: string;
  onDone: () => Promise<unknown> | void;
}) {
  const { t } = useT();
  const [text, setText] = useState('');
  const [warning, setWarning] = useState('');
  const reply = useOutbox([['timeline'], ['posts']]);
  const send = () => {
    if (!text.trim() || reply.isPending) return;
    reply.mutate(
      {
        type: 'Reply',
        to,
        object: { source: text, ...(warning.trim() ? { contentWarning: warning.trim() } : {}) },
      },
      {
        onSuccess: () =>
          void Promise.resolve(onDone()).then(() => {
            setText('');
            setWarning('');
          }),
      },
    );
  };
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label>
        {label}
        <textarea
          rows={2}
          required
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              send();
            }
          }}
        />
      </label>
      <WarningFields warning={warning} onWarning={setWarning} label={t('post.cwReplyField')} />
      <button type="submit" disabled={reply.isPending}>
        {t('post.reply')}
      </button>
      <ErrorNote error={reply.error} title={t('post.replyNotSent')} retry={send} />
    </form>
  );
}
