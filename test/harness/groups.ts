/**
 * The world of the groups tests (test/e2e/groups*.test.ts): one standalone server with alice,
 * bob, carol and dave, a queue of our own capturing the group.* and member.* events social
 * publishes, and the calls those tests make. State is per test file (Jest loads this module
 * afresh for each file).
 */
import { randomUUID } from 'node:crypto';
import type { BusMessage } from '@agora/common/messaging';
import { waitFor } from './standalone';
import type { Actor } from './actors';
import { bootFourUsers, type FourUsers } from './four-users';

export type Group = {
  id: string;
  memberCount: number;
  rsvpPolicy: string;
  circles: Record<string, string>;
  status?: string;
  url: string;
  inbox: string;
  to: string;
};
export type Collection<T = { id: string }> = { type: string; totalItems: number; orderedItems: T[] };

export type GroupsWorld = FourUsers;
let world: GroupsWorld | undefined;
let events: BusMessage[] = [];
const current = (): GroupsWorld => {
  if (!world) throw new Error('bootGroups() has not run');
  return world;
};

/** Boots the server, registers alice, bob, carol and dave, and starts capturing group events. */
export async function bootGroups(): Promise<GroupsWorld> {
  world = await bootFourUsers('test.groups', ['group.*', 'member.*']);
  events = world.events;
  return world;
}

export async function closeGroups(): Promise<void> {
  await world?.server.close();
}

/** POST /outbox with a fresh Idempotency-Key, so repeated bodies reach the handler. */
export function act(actor: Actor | undefined, activity: unknown) {
  return current().api.post<{ createdId?: string; result?: Group & Record<string, unknown>; error?: string }>(
    '/outbox',
    activity,
    {
      headers: { 'idempotency-key': randomUUID() },
      ...(actor ? { token: actor.token } : {}),
    },
  );
}

export async function createGroup(
  actor: Actor,
  object: Record<string, unknown>,
  to: string = '@public',
): Promise<Group> {
  const res = await act(actor, { type: 'Create', objectType: 'Group', to, object });
  if (res.status !== 201) throw new Error(`create group: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result!;
}

/** Waits for a published event (delivery to subscribers is asynchronous). */
export async function published(name: string, match: Record<string, unknown>): Promise<BusMessage> {
  const find = () =>
    events.find(
      (e) =>
        e.name === name &&
        Object.entries(match).every(
          ([k, v]) => JSON.stringify((e.payload as Record<string, unknown>)[k]) === JSON.stringify(v),
        ),
    );
  await waitFor(() => Promise.resolve(!!find()), 5000, 50);
  return find()!;
}

export const ids = (c: { orderedItems: Array<{ id: string }> }) => c.orderedItems.map((x) => x.id);

export async function groupsCircleOf(actor: Actor): Promise<string[]> {
  const me = await current().api.get<{ user: { groups: string } }>('/auth/me', { token: actor.token });
  if (me.status !== 200) throw new Error(`/auth/me: ${me.status} ${JSON.stringify(me.body)}`);
  const members = await current().api.get<Collection>(`/circles/${me.body.user.groups}/members`, {
    token: actor.token,
  });
  if (members.status !== 200)
    throw new Error(`groups circle: ${members.status} ${JSON.stringify(members.body)}`);
  return ids(members.body);
}

export async function detail(group: Group, actor?: Actor) {
  return current().api.get<{
    item: Group & { isMember: boolean; isAdmin: boolean; isPending: boolean };
    error?: string;
  }>(`/groups/${group.id}`, actor ? { token: actor.token } : {});
}
