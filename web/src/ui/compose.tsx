/**
 * Compose: markdown with a preview (rendered by the server's own module, so it is what will be
 * published), an audience picker, image attachments with progress and a description each (the
 * image's alt text, stored with the file), a content warning and a sensitive-media switch, a
 * draft per audience kept in localStorage, Ctrl+Enter to post, and a failed post that keeps its
 * text and offers a retry.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api, upload } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useMe, useOutbox } from '../api/hooks';
import type { Circle, Collection, Group, UploadedFile } from '../api/types';
import { Markdown, preloadRenderer } from './markdown';
import { loadDraft, saveDraft } from './drafts';
import { ErrorNote } from './states';
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';
import { WarningFields } from './warning-fields';

interface Attachment {
  key: number;
  name: string;
  pct: number;
  file?: UploadedFile;
  error?: string;
  /** The image's description, saved on the file (PATCH /files/:id) before the post is sent. */
  description: string;
}

let nextKey = 1;

/**
 * The audiences compose offers: public, this server, my own circles and my groups. Not the
 * system circles, nor the built-in Following circle (it is the home timeline: the people I
 * follow, not an audience).
 */
function useAudiences(userId: string | undefined, followingId: string | null | undefined) {
  const circles = useQuery({
    queryKey: ['my-circles', userId],
    queryFn: () => api.get<Collection<Circle>>(pathOf('userCircles', { id: userId! }), { limit: 100 }),
    enabled: Boolean(userId),
  });
  const groups = useQuery({
    queryKey: ['my-groups', userId],
    queryFn: () => api.get<Collection<Group>>(pathOf('userGroups', { id: userId! }), { limit: 100 }),
    enabled: Boolean(userId),
  });
  return {
    circles: (circles.data?.orderedItems ?? []).filter((c) => c.type !== 'System' && c.id !== followingId),
    groups: groups.data?.orderedItems ?? [],
  };
}

export function Compose({
  defaultTo,
  fixedTo,
  onPosted,
}: {
  defaultTo?: string;
  fixedTo?: string;
  onPosted?: () => void;
}) {
  const { t } = useT();
  const me = useMe();
  const config = useConfig();
  const domain = config.data?.domain ?? '';
  const { circles, groups } = useAudiences(fixedTo ? undefined : me.data?.id, me.data?.following);
  const userId = me.data?.id;
  const [to, setTo] = useState(defaultTo ?? fixedTo ?? '@public');
  const audience = fixedTo ?? to;
  const [text, setText] = useState(() => loadDraft(userId, audience));
  const form = useRef<HTMLFormElement>(null);
  // The session may arrive after the first render: pick up the draft then.
  const [draftFor, setDraftFor] = useState(userId);
  if (draftFor !== userId) {
    setDraftFor(userId);
    if (!text) setText(loadDraft(userId, audience));
  }
  useEffect(() => saveDraft(userId, audience, text), [userId, audience, text]);
  /** A new audience: the text written so far moves to it; with nothing written, its draft opens. */
  const chooseAudience = (next: string) => {
    if (text.trim()) saveDraft(userId, to, '');
    else setText(loadDraft(userId, next));
    setTo(next);
  };
  const ctrlEnter = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      form.current?.requestSubmit();
    }
  };
  const [preview, setPreview] = useState(false);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [posted, setPosted] = useState<string | null>(null);
  const [warning, setWarning] = useState('');
  const [sensitive, setSensitive] = useState(false);
  const [describing, setDescribing] = useState<{ pending: boolean; error: unknown }>({
    pending: false,
    error: null,
  });
  const post = useOutbox([['timeline'], ['posts']]);
  const uploading = attachments.some((a) => !a.file && !a.error);

  const addFiles = (files: FileList | null) => {
    for (const f of Array.from(files ?? [])) {
      const key = nextKey++;
      setAttachments((all) => [...all, { key, name: f.name, pct: 0, description: '' }]);
      const update = (patch: Partial<Attachment>) =>
        setAttachments((all) => all.map((a) => (a.key === key ? { ...a, ...patch } : a)));
      const form = new FormData();
      form.append('file', f);
      upload<{ file?: UploadedFile }>(pathOf('files'), form, (pct) => update({ pct }))
        .then((out) => {
          const file = out.file;
          update(file ? { file, pct: 100 } : { error: t('common.noFile') });
        })
        .catch((err: unknown) =>
          update({ error: err instanceof Error ? err.message : t('common.uploadFailed') }),
        );
    }
  };

  /** Each description that changed is saved on its file first: the post copies them from there. */
  const describe = (): Promise<void> =>
    Promise.all(
      attachments.map(async (a) => {
        const description = a.description.trim();
        if (!a.file || description === (a.file.description ?? '')) return;
        const out = await api.patch<{ file: UploadedFile }>(pathOf('file', { id: a.file.id }), {
          description,
        });
        setAttachments((all) => all.map((x) => (x.key === a.key ? { ...x, file: out.file } : x)));
      }),
    ).then(() => undefined);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (describing.pending || post.isPending || uploading || (!text.trim() && !attachments.length)) return;
    setDescribing({ pending: true, error: null });
    describe().then(
      () => {
        setDescribing({ pending: false, error: null });
        send();
      },
      (error: unknown) => setDescribing({ pending: false, error }),
    );
  };

  const send = () => {
    const images = attachments.flatMap((a) => (a.file ? [a.file] : []));
    post.mutate(
      {
        type: 'Create',
        objectType: 'Post',
        to: fixedTo ?? to,
        object: {
          type: 'Note',
          source: text,
          // File ids, not URLs: referencing a file attaches it to the post, whose audience it takes.
          ...(images[0] ? { image: images[0].id } : {}),
          ...(images.length ? { attachments: images.map((f) => f.id) } : {}),
          ...(warning.trim() ? { contentWarning: warning.trim() } : {}),
          ...(sensitive ? { sensitive: true } : {}),
        },
      },
      {
        onSuccess: (out) => {
          setPosted(out.createdId ?? out.result.id);
          saveDraft(userId, audience, '');
          setText('');
          setAttachments([]);
          setWarning('');
          setSensitive(false);
          setPreview(false);
          onPosted?.();
        },
      },
    );
  };

  return (
    <form ref={form} className="compose card" onSubmit={submit} aria-label={t('compose.form')}>
      <div className="tabs" role="group" aria-label={t('compose.mode')}>
        <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)}>
          {t('compose.write')}
        </button>
        <button
          type="button"
          aria-pressed={preview}
          onMouseEnter={preloadRenderer}
          onClick={() => setPreview(true)}
        >
          {t('compose.preview')}
        </button>
      </div>
      {preview ? (
        <div className="preview" aria-label={t('compose.preview')} data-testid="compose-preview">
          {text.trim() ? (
            <Markdown source={text} />
          ) : (
            <p className="state">{t('compose.nothingToPreview')}</p>
          )}
        </div>
      ) : (
        <label>
          <span className="sr-only">{t('compose.text')}</span>
          <textarea
            name="text"
            rows={4}
            placeholder={t('compose.placeholder')}
            value={text}
            onKeyDown={ctrlEnter}
            onFocus={preloadRenderer}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      )}
      <WarningFields
        warning={warning}
        onWarning={setWarning}
        sensitive={sensitive}
        onSensitive={setSensitive}
        placeholder={t('compose.cwPlaceholder')}
      />
      <div className="compose-row">
        {fixedTo ? null : (
          <label>
            {t('compose.audience')}
            <select name="audience" value={to} onChange={(e) => chooseAudience(e.target.value)}>
              <option value="@public">{t('common.public')}</option>
              {domain ? <option value={`@${domain}`}>{t('common.thisServer')}</option> : null}
              {circles.length ? (
                <optgroup label={t('compose.myCircles')}>
                  {circles.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {groups.length ? (
                <optgroup label={t('compose.groups')}>
                  {groups.map((g) => (
                    <option key={g.id} value={g.id}>
                      {g.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </label>
        )}
        <label className="file-pick">
          {t('compose.addImage')}
          <input type="file" accept="image/*" multiple onChange={(e) => addFiles(e.target.files)} />
        </label>
        <button
          type="submit"
          disabled={
            describing.pending || post.isPending || uploading || (!text.trim() && !attachments.length)
          }
        >
          {post.isPending || describing.pending ? t('compose.posting') : t('compose.post')}
        </button>
      </div>
      {attachments.length ? (
        <ul className="attachments" aria-label={t('compose.attachments')}>
          {attachments.map((a) => (
            <li key={a.key}>
              {a.name}{' '}
              {a.error ? (
                <span className="error" role="alert">
                  {a.error}
                </span>
              ) : a.file ? (
                <span data-testid="upload-done">{t('compose.uploaded')}</span>
              ) : (
                <progress max={100} value={a.pct} aria-label={t('compose.uploading', { name: a.name })}>
                  {a.pct}%
                </progress>
              )}
              <button
                type="button"
                className="link-button"
                onClick={() => setAttachments((all) => all.filter((x) => x.key !== a.key))}
              >
                {t('compose.remove')}
              </button>
              {a.error ? null : (
                <label className="describe">
                  {t('compose.describe', { name: a.name })}
                  <textarea
                    rows={2}
                    maxLength={1500}
                    placeholder={t('compose.describePlaceholder')}
                    value={a.description}
                    onChange={(e) => {
                      const description = e.target.value;
                      setAttachments((all) => all.map((x) => (x.key === a.key ? { ...x, description } : x)));
                    }}
                  />
                </label>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorNote error={describing.error} title={t('compose.describeFailed')} />
      <ErrorNote
        error={post.error}
        title={t('compose.notPosted')}
        retry={post.isPending ? undefined : () => send()}
      />
      {posted && !post.error ? (
        <p role="status" data-testid="posted">
          <Rich text={t('compose.posted')} parts={[<Link to="/posts/$id" params={{ id: posted }} />]} />
        </p>
      ) : null}
    </form>
  );
}
