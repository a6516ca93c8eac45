/**
 * The notifications story's world (test/e2e/notifications*.test.ts): one standalone server with
 * alice, bob, carol and dave, a queue of our own capturing every bus message social publishes,
 * and the calls those tests make (post, reply, react, list, count, wait for notifications, feed a
 * captured event to the consumer again). State is per test file (Jest loads this module afresh
 * for each file).
 */
import { randomUUID } from 'node:crypto';
import type { BusMessage } from '@agora/common/messaging';
import type { Runtime } from '@agora/common/runtime';
import { createNotificationsContext } from '@agora/notifications';
import { NOTIFICATIONS } from '@agora/common/db';
import { waitFor } from './standalone';
import type { Actor } from './actors';
import { bootFourUsers, type FourUsers } from './four-users';

export type Note = {
  id: string;
  type: string;
  recipientId: string;
  actorId: string;
  actorName?: string;
  objectId?: string;
  objectType?: string;
  activityId?: string;
  summary: string;
  href: string;
  read: boolean;
  dismissed: boolean;
  groupKey?: string;
} & Record<string, unknown>;
/** A stored notification as the port gives it back. */
type NotificationRow = Note & { _id: string };
export type Collection = { type: string; id: string; totalItems: number; orderedItems: Note[] };
export type Changed = { ok?: boolean; notification?: Note; error?: string };

export interface NotificationsWorld extends FourUsers {
  publicUrl: string;
}

let world: NotificationsWorld | undefined;
let events: BusMessage[] = [];
const current = (): NotificationsWorld => {
  if (!world) throw new Error('bootNotifications() has not run');
  return world;
};

/** Boots the server, registers alice, bob, carol and dave, and starts capturing bus messages. */
export async function bootNotifications(): Promise<NotificationsWorld> {
  const users = await bootFourUsers('test.notifications', ['#']);
  world = { ...users, publicUrl: users.server.config.publicUrl };
  events = world.events;
  return world;
}

export async function closeNotifications(): Promise<void> {
  await world?.server.close();
}

export const send = async (who: Actor, activity: unknown) => {
  const res = await current().api.post<{
    createdId?: string;
    result?: Record<string, unknown>;
    error?: string;
  }>('/outbox', activity, { token: who.token, headers: { 'idempotency-key': randomUUID() } });
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
export const post = async (who: Actor, content: string, to = '@public') =>
  (await send(who, { type: 'Create', objectType: 'Post', to, object: { content } })).createdId!;
export const reply = async (who: Actor, to: string, content: string) =>
  (await send(who, { type: 'Reply', to, object: { content } })).createdId!;
export const react = (who: Actor, to: string, emoji = '👍') =>
  send(who, { type: 'React', to, object: { emoji } });

export const list = async (who: Actor, query = '') => {
  const res = await current().api.get<Collection>(`/notifications${query}`, { token: who.token });
  expect(res.status).toBe(200);
  return res.body;
};
export const count = async (who: Actor, query = '') =>
  (await current().api.get<{ count: number }>(`/notifications/unread/count${query}`, { token: who.token }))
    .body.count;
export const ofType = async (who: Actor, type: string) => (await list(who, `?types=${type}`)).orderedItems;
/** Waits until `who` has exactly `n` notifications of `type` (delivery is asynchronous). */
export const expectNotes = async (who: Actor, type: string, n: number) => {
  await waitFor(async () => (await ofType(who, type)).length >= n, 10_000);
  const items = await ofType(who, type);
  expect(items).toHaveLength(n);
  return items;
};
export const notifRuntime = (): Runtime =>
  current().server.services.find((s) => s.name === 'notifications')!.runtime!;
export const notifContext = () => createNotificationsContext(notifRuntime());
/** The stored notifications, read through the engine port (as the store reads them). */
export const Notification = () => notifRuntime().db.engine.collection<NotificationRow>(NOTIFICATIONS);
/** The bus message social published for an event (captured by a queue of our own). */
export const published = async (name: string, match: Record<string, unknown>): Promise<BusMessage> => {
  const find = () =>
    events.find(
      (e) =>
        e.name === name &&
        Object.entries(match).every(([k, v]) => (e.payload as Record<string, unknown>)[k] === v),
    );
  await waitFor(async () => Promise.resolve(Boolean(find())), 10_000);
  return find()!;
};
