import type { FederationContext } from '../context';
import { answerActivity, joinActivity, relayActivity } from './group-activity';

const ctx = { config: { publicUrl: 'https://a.test' } } as unknown as FederationContext;
const G = 'group:0123456789abcdef01234567@a.test';
const group = { id: G, actorId: '@alice@a.test', name: 'Gardeners', to: '@public', rsvpPolicy: 'open' };

describe('group activities on the wire', () => {
  test('Join and Leave by the user, naming the group; ids stable per event', () => {
    const join = joinActivity(ctx, 'Join', '@bob@a.test', G, 'ev:1');
    expect(join).toMatchObject({ type: 'Join', actorId: '@bob@a.test', object: G });
    expect(join.id).toBe(joinActivity(ctx, 'Join', '@bob@a.test', G, 'ev:1').id);
    expect(joinActivity(ctx, 'Leave', '@bob@a.test', G, 'ev:1').id).not.toBe(join.id);
  });

  test('Accept and Reject by the group, naming the Join and describing the group', () => {
    expect(answerActivity(ctx, 'Accept', group, '@bob@b.test', 'ev:2')).toMatchObject({
      type: 'Accept',
      actorId: G,
      object: { type: 'Join', actor: '@bob@b.test', object: G },
      group,
    });
  });

  test('a relay is an Announce by the group of the activity as addressed', () => {
    const inner = { id: 'https://a.test/posts/x#create', type: 'Create', actorId: '@cat@c.test', to: [G] };
    expect(relayActivity(ctx, G, inner, 'ev:3')).toMatchObject({
      type: 'Announce',
      actorId: G,
      object: inner,
    });
  });
});
