/**
 * Issue 23's two-server proof, with real processes, continued from two-servers.test.ts: every
 * audience as a row, run both ways (A → B and B → A), whether a post to it reaches a server whose
 * only tie to the author is a follower. What the receiving server stored is read from its SQLite
 * file; a server that must not receive the post is shown to hold nothing of it, after a public
 * marker written later by the same author has arrived along the same path. The setting and the
 * calls are test/harness/federation-sides.ts.
 */
import { randomUUID } from 'node:crypto';
import { act, register } from '../harness/two-compiled';
import {
  BOTH_WAYS,
  circleOf,
  closePollingPair,
  copied,
  groupOf,
  sides,
  startPollingPair,
  storedOn,
  until,
  type Sides,
  type Stored,
} from '../harness/federation-sides';

beforeAll(async () => {
  await startPollingPair();
}, 180_000);
afterAll(closePollingPair);

/**
 * Every audience: whether a post to it reaches a server whose only tie to the author is a
 * follower. `to` gets the sides (a circle is created on the origin).
 */
interface AudienceRow {
  name: string;
  to: (s: Sides) => Promise<string>;
  reaches: boolean;
}
const AUDIENCES: AudienceRow[] = [
  { name: 'public', to: () => Promise.resolve('@public'), reaches: true },
  { name: 'a circle holding the follower', to: (s) => circleOf(s, [s.follower.id]), reaches: true },
  {
    name: 'a circle holding the follower’s server (`@<holder>`)',
    to: (s) => circleOf(s, [`@${s.holder.domain}`]),
    reaches: true,
  },
  {
    name: 'the author’s server only (`@<origin>`)',
    to: (s) => Promise.resolve(`@${s.origin.domain}`),
    reaches: false,
  },
  {
    name: 'a circle holding only a local member',
    to: async (s) => {
      const local = await register(s.origin, `l${randomUUID().slice(0, 8)}`);
      const circle = await act(s.origin, s.author.token, {
        type: 'Create',
        objectType: 'Circle',
        to: s.author.id,
        object: { name: 'local friends' },
      });
      await act(s.origin, s.author.token, { type: 'Add', object: local.id, target: circle });
      return circle;
    },
    reaches: false,
  },
  {
    name: 'a group without members on the other server',
    to: (s) => groupOf(s),
    reaches: false,
  },
];

describe.each(BOTH_WAYS)('%s', (_direction, peers) => {
  let s: Sides;
  beforeAll(async () => {
    const [origin, holder] = peers();
    s = await sides(origin, holder);
  });

  test.each(AUDIENCES)(
    'a post to $name reaches the other server: $reaches',
    async ({ to: audience, reaches }) => {
      const to = await audience(s);
      const id = await act(s.origin, s.author.token, {
        type: 'Create',
        objectType: 'Post',
        to,
        object: { content: `to ${to}` },
      });
      // A public marker written after it by the same author, along the same path: once it is
      // stored, anything wrongly sent before it would have been too.
      await copied(s, `marker ${randomUUID()}`);
      if (reaches) {
        expect(await until('the copy', () => storedOn(s.holder, 'posts', id))).toBeTruthy();
        return;
      }
      expect(await storedOn(s.holder, 'posts', id)).toBeUndefined();
      const log = await s.holder.stored<Stored>('activities');
      expect(log.filter((r) => typeof r.raw === 'string' && r.raw.includes(id))).toEqual([]);
    },
  );
});
