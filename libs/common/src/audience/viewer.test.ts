/**
 * Table-driven tests of the audience rules: every tier × every kind of viewer, with the expected
 * answers written out in audience.fixtures.ts. `visibleFilter` is checked against the real
 * database by test/integration/audience.test.ts with the same table.
 */
import { ANONYMOUS, buildViewer, canSee, capabilityAllows, readableAudiences, tierOf } from './viewer';
import {
  BLOCKED_CIRCLE,
  CAPABILITY_TABLE,
  CIRCLE,
  DOMAIN,
  GROUP,
  OWNER,
  READ_TABLE,
  VIEWER_NAMES,
  VIEWERS,
} from './audience.fixtures';

const readCases = READ_TABLE.flatMap((row) =>
  VIEWER_NAMES.map((name) => [row.tier, name, row.sees.includes(name), row] as const),
);

describe('canSee', () => {
  test.each(readCases)('%s read by %s: %s', (_tier, name, expected, row) => {
    const obj = { to: row.to, actorId: OWNER, deletedAt: row.deleted ? new Date() : null };
    expect(canSee(obj, VIEWERS[name], DOMAIN)).toBe(expected);
  });

  test('a missing `to` is owner-only, and ANONYMOUS is the anonymous viewer', () => {
    expect(canSee({ actorId: OWNER }, VIEWERS.owner, DOMAIN)).toBe(true);
    for (const name of VIEWER_NAMES.filter((n) => n !== 'owner'))
      expect(canSee({ actorId: OWNER }, VIEWERS[name], DOMAIN)).toBe(false);
    expect(ANONYMOUS).toEqual(VIEWERS.anonymous);
  });

  test('membership of the Blocked circle opens only content addressed to it, not the owner’s circles', () => {
    expect(canSee({ to: BLOCKED_CIRCLE, actorId: OWNER }, VIEWERS.blocked, DOMAIN)).toBe(true);
    expect(canSee({ to: CIRCLE, actorId: OWNER }, VIEWERS.blocked, DOMAIN)).toBe(false);
  });

  test("another server's @domain audience is not this server's: only that server itself matches it", () => {
    const remoteLocal = { to: '@remote.example', actorId: '@rita@remote.example' };
    for (const name of VIEWER_NAMES)
      expect(canSee(remoteLocal, VIEWERS[name], DOMAIN)).toBe(name === 'remoteServer');
  });
});

const capabilityCases = CAPABILITY_TABLE.flatMap((row) =>
  VIEWER_NAMES.map(
    (name) =>
      [row.capability || '(unset)', row.ownerTo, name, row.allows.includes(name), row.capability] as const,
  ),
);

describe('capabilityAllows', () => {
  test.each(capabilityCases)('%s on an object to %s, for %s: %s', (_label, ownerTo, name, expected, cap) => {
    expect(capabilityAllows(cap, { to: ownerTo, actorId: OWNER }, VIEWERS[name], DOMAIN)).toBe(expected);
  });

  test('null and undefined capabilities fall back to the audience like ""', () => {
    for (const cap of [null, undefined])
      for (const name of VIEWER_NAMES)
        expect(capabilityAllows(cap, { to: CIRCLE, actorId: OWNER }, VIEWERS[name], DOMAIN)).toBe(
          ['member', 'owner', 'remoteServerMember'].includes(name),
        );
  });
});

describe('readableAudiences', () => {
  test.each([
    ['anonymous', ['@public']],
    ['local', ['@public', `@${DOMAIN}`, '@server', VIEWERS.local.id]],
    ['member', ['@public', `@${DOMAIN}`, '@server', VIEWERS.member.id, CIRCLE, GROUP]],
    ['admin', ['@public', `@${DOMAIN}`, '@server', VIEWERS.admin.id]],
    ['remoteUser', ['@public', VIEWERS.remoteUser.id]],
    ['remoteServer', ['@public', VIEWERS.remoteServer.id]],
    ['remoteServerMember', ['@public', VIEWERS.remoteServerMember.id, CIRCLE]],
    ['blocked', ['@public', `@${DOMAIN}`, '@server', VIEWERS.blocked.id, BLOCKED_CIRCLE]],
  ] as const)('%s', (name, expected) => {
    expect([...readableAudiences(VIEWERS[name], DOMAIN)].sort()).toEqual([...expected].sort());
  });
});

describe('tierOf', () => {
  test.each([
    ['@public', 'Public'],
    [`@${DOMAIN}`, 'Server'],
    ['@server', 'Server'],
    ['@remote.example', 'Audience'],
    [CIRCLE, 'Audience'],
    [GROUP, 'Audience'],
    [OWNER, 'Audience'],
    ['', 'Audience'],
    [null, 'Audience'],
  ] as const)('%s is %s', (to, label) => {
    expect(tierOf(to, DOMAIN)).toBe(label);
  });
});

describe('buildViewer', () => {
  const rows: Record<string, { circles: string[]; groups: string[] }> = {
    [VIEWERS.member.id]: { circles: [CIRCLE], groups: [GROUP] },
    // A cached circle of another server holding this server, and this server's own Following
    // circle of someone who follows the server actor (that one makes no one a member).
    [`@${DOMAIN}`]: {
      circles: ['circle:remote@peer.example', CIRCLE],
      groups: ['group:ignored@peer.example'],
    },
    '@rex@remote.example': { circles: [CIRCLE], groups: [] },
  };
  const source = {
    membershipsOf: (id: string) => Promise.resolve(rows[id] ?? { circles: [], groups: [] }),
  };

  test("a local user is in the circles holding them and other servers' circles holding this server", async () => {
    expect(await buildViewer(source, DOMAIN, { id: VIEWERS.member.id })).toEqual({
      id: VIEWERS.member.id,
      local: true,
      isAdmin: false,
      circleIds: [CIRCLE, 'circle:remote@peer.example'],
      groupIds: [GROUP],
    });
    expect((await buildViewer(source, DOMAIN, { id: VIEWERS.local.id })).circleIds).toEqual([
      'circle:remote@peer.example',
    ]);
  });

  test('a remote user gets no memberships, anonymous is ANONYMOUS', async () => {
    expect(await buildViewer(source, DOMAIN, { id: '@rex@remote.example' })).toEqual(VIEWERS.remoteUser);
    expect(await buildViewer(source, DOMAIN, undefined)).toBe(ANONYMOUS);
  });
});
