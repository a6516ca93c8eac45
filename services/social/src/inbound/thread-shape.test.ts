import { isReplyObject, readReaction, readReply, readUnreact, undoesReaction } from './thread-shape';

const BOB = '@bob@b.test';
const note = (extra: Record<string, unknown> = {}) => ({
  id: 'reply:1@b.test',
  type: 'Note',
  attributedTo: BOB,
  inReplyTo: 'post:9@a.test',
  content: '<p>hi</p>',
  ...extra,
});

describe('readReply', () => {
  test('a reply Note of the actor', () => {
    const read = readReply(note(), BOB);
    expect(read).toMatchObject({ ok: true, value: { id: 'reply:1@b.test', inReplyTo: 'post:9@a.test' } });
  });
  test.each([
    ['not an object', 'reply:1@b.test', 'object: an object is required'],
    ['no id', note({ id: undefined }), 'object.id: is required'],
    ['no inReplyTo', note({ inReplyTo: undefined }), 'object.inReplyTo: is required'],
    ['an id on another domain', note({ id: 'reply:1@c.test' }), "object.id: must be on its author's domain"],
    [
      'another author',
      note({ attributedTo: '@eve@b.test' }),
      'object.attributedTo: must be the activity actor',
    ],
  ])('refuses %s', (_what, object, reason) => {
    expect(readReply(object, BOB)).toEqual({ ok: false, reason });
  });
  test('tells replies from posts', () => {
    expect(isReplyObject(note())).toBe(true);
    expect(isReplyObject(note({ inReplyTo: undefined }))).toBe(false);
    expect(isReplyObject(note({ inReplyTo: { id: 'post:9@a.test' } }))).toBe(true);
  });
});

describe('readReaction and readUnreact', () => {
  const react = (object: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'React',
    actorId: BOB,
    to: 'post:9@a.test',
    object: { id: 'react:1@b.test', type: 'React', ...object },
    ...extra,
  });
  test('a React names the reaction, its target and emoji', () => {
    expect(readReaction(react({ emoji: '🎉', name: 'party' }), BOB)).toEqual({
      ok: true,
      value: { id: 'react:1@b.test', target: 'post:9@a.test', emoji: '🎉', name: 'party' },
    });
  });
  test.each([
    ['no emoji', react({}), 'object.emoji: must be an emoji or a short label'],
    ['an emoji with markup', react({ emoji: '<b>' }), 'object.emoji: must be an emoji or a short label'],
    [
      'an emoji with a dot (a key path)',
      react({ emoji: 'a.b' }),
      'object.emoji: must be an emoji or a short label',
    ],
    ['no target', react({ emoji: '🎉' }, { to: undefined }), 'to: the reacted-to object is required'],
    [
      'a reaction id of another domain',
      react({ emoji: '🎉', id: 'react:1@c.test' }),
      "object.id: must be on its author's domain",
    ],
    ['no reaction', { type: 'React', to: 'post:9@a.test' }, 'object: the reaction is required'],
  ])('refuses %s', (_what, activity, reason) => {
    expect(readReaction(activity, BOB)).toEqual({ ok: false, reason });
  });
  test('an Undo of a React names the reaction and its target', () => {
    const undo = {
      type: 'Undo',
      object: { type: 'React', to: 'reply:2@a.test', object: { id: 'react:1@b.test' } },
    };
    expect(undoesReaction(undo)).toBe(true);
    expect(readUnreact(undo, BOB)).toEqual({
      ok: true,
      value: { id: 'react:1@b.test', target: 'reply:2@a.test' },
    });
    expect(undoesReaction({ type: 'Undo', object: { type: 'Follow' } })).toBe(false);
    expect(readUnreact({ object: { type: 'React', object: { id: 'react:1@b.test' } } }, BOB)).toEqual({
      ok: false,
      reason: 'object.to: the reacted-to object is required',
    });
  });
});
