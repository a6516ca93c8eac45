/**
 * The consumer's grouping check (NotificationsStore.groupPending) on the real FerretDB: judged on
 * the group's newest notification through its pointer (`notification_groups`), by `_id` reads
 * only; notifications stored before the pointers get theirs from the start-up pass, once.
 */
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_notif_groups', 'groups.test', { query: 'monitorCommands=true' });
const finds: Array<Record<string, unknown>> = [];

beforeAll(() => {
  t.db.conn
    .getClient()
    .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) => {
      if (e.commandName === 'find' && e.command.find === 'notifications')
        finds.push(e.command.filter as Record<string, unknown>);
    });
});

const bob = '@bob@groups.test';
const stored = (id: string, groupKey: string, at: Date, read = false) => ({
  _id: id,
  id,
  type: 'reply',
  recipientId: bob,
  actorId: '@ann@groups.test',
  summary: 'ann replied',
  href: '/posts/1',
  groupKey,
  read,
  dismissed: false,
  listed: true,
  createdAt: at,
});

test('groups stored before the pointers are pointed at their newest notification, once', async () => {
  const hour = 60 * 60_000;
  await t.models.Notification.collection.insertMany([
    stored('n-old', 'reply:1', new Date(Date.now() - 2 * hour), true),
    stored('n-new', 'reply:1', new Date(Date.now() - hour)),
    stored('n-read', 'reply:2', new Date(Date.now() - hour), true),
  ] as never[]);
  await t.repos.notifications.prepare();
  expect(await t.models.NotificationGroup.findById(`${bob}|reply:1`).lean()).toMatchObject({ last: 'n-new' });
  const before = finds.length;
  // reply:1's newest is unread: it stands in. reply:2's newest was read: it does not.
  expect(await t.repos.notifications.groupPending(bob, 'reply:1')).toBe(true);
  expect(await t.repos.notifications.groupPending(bob, 'reply:2')).toBe(false);
  // With a cooldown, a seen one stands in until it is older than the cooldown.
  expect(await t.repos.notifications.groupPending(bob, 'reply:2', 3 * hour)).toBe(true);
  expect(await t.repos.notifications.groupPending(bob, 'reply:2', hour / 2)).toBe(false);
  expect(await t.repos.notifications.groupPending(bob, 'reply:3')).toBe(false);
  // Every read of a notification was by `_id`: no scan of the collection.
  const reads = finds.slice(before);
  expect(reads.length).toBeGreaterThan(0);
  expect(reads.every((f) => Object.keys(f).length === 1 && typeof f._id === 'string')).toBe(true);
  // Recorded: a second start does not move a pointer back.
  await t.models.NotificationGroup.updateOne({ _id: `${bob}|reply:1` }, { $set: { last: 'n-old' } });
  await t.repos.notifications.prepare();
  expect(await t.models.NotificationGroup.findById(`${bob}|reply:1`).lean()).toMatchObject({ last: 'n-old' });
});

test('a new notification becomes its group pointer, so the next event of the group is grouped', async () => {
  expect(await t.repos.notifications.groupPending(bob, 'react:9')).toBe(false);
  const created = await t.repos.notifications.create({
    id: 'n-react',
    type: 'react',
    recipientId: bob,
    actorId: '@ann@groups.test',
    actorName: 'ann',
    summary: 'ann reacted',
    href: '/posts/9',
    groupKey: 'react:9',
    eventId: 'evt-1|react|bob',
  });
  expect(created).toBe(true);
  expect(await t.models.NotificationGroup.findById(`${bob}|react:9`).lean()).toMatchObject({
    last: 'n-react',
  });
  expect(await t.repos.notifications.groupPending(bob, 'react:9')).toBe(true);
});
