/**
 * The audience rules as a table (spec 2, decisions.md §5), shared by the unit tests of
 * `canSee` / `capabilityAllows` and the integration test that runs `visibleFilter` against the
 * real database. Every expectation is written out by hand, never computed from the code under
 * test, so a wrong rule fails a row. Test-only: nothing in the services imports it.
 */
import type { Viewer } from './viewer';

export const DOMAIN = 'social.test';
export const OWNER = `@olive@${DOMAIN}`;
export const CIRCLE = `circle:${'a'.repeat(24)}@${DOMAIN}`;
export const GROUP = `group:${'b'.repeat(24)}@${DOMAIN}`;
/** The owner's Blocked system circle: being in it is a circle membership like any other. */
export const BLOCKED_CIRCLE = `circle:${'c'.repeat(24)}@${DOMAIN}`;
const MEMBER_ID = `@mia@${DOMAIN}`;

export const VIEWERS = {
  anonymous: { local: false, isAdmin: false, circleIds: [], groupIds: [] },
  local: { id: `@lou@${DOMAIN}`, local: true, isAdmin: false, circleIds: [], groupIds: [] },
  member: { id: MEMBER_ID, local: true, isAdmin: false, circleIds: [CIRCLE], groupIds: [GROUP] },
  owner: { id: OWNER, local: true, isAdmin: false, circleIds: [], groupIds: [] },
  admin: { id: `@ada@${DOMAIN}`, local: true, isAdmin: true, circleIds: [], groupIds: [] },
  remoteUser: { id: '@rex@remote.example', local: false, isAdmin: false, circleIds: [], groupIds: [] },
  /** A server signing a pull (services/social/src/access/viewer.ts), in no circle. */
  remoteServer: { id: '@remote.example', local: false, isAdmin: false, circleIds: [], groupIds: [] },
  /** A server that the circle holds as a member. */
  remoteServerMember: {
    id: '@peer.example',
    local: false,
    isAdmin: false,
    circleIds: [CIRCLE],
    groupIds: [],
  },
  /** A local user the owner blocked: blocking hides authors from timelines, not audiences. */
  blocked: { id: `@bo@${DOMAIN}`, local: true, isAdmin: false, circleIds: [BLOCKED_CIRCLE], groupIds: [] },
} satisfies Record<string, Viewer>;

export type ViewerName = keyof typeof VIEWERS;
export const VIEWER_NAMES = Object.keys(VIEWERS) as ViewerName[];

/** Which viewers may read an object by OWNER with this `to`, or with this capability. */
type Row = { tier: string; to: string; deleted?: boolean; sees: ViewerName[] };

const LOCALS: ViewerName[] = ['local', 'member', 'owner', 'admin', 'blocked'];
const EVERYONE: ViewerName[] = VIEWER_NAMES;
const AUTHENTICATED = VIEWER_NAMES.filter((v) => v !== 'anonymous');

export const READ_TABLE: Row[] = [
  { tier: 'public', to: '@public', sees: EVERYONE },
  { tier: 'this server (@domain)', to: `@${DOMAIN}`, sees: LOCALS },
  { tier: 'this server (legacy @server)', to: '@server', sees: LOCALS },
  { tier: 'circle', to: CIRCLE, sees: ['member', 'owner', 'remoteServerMember'] },
  { tier: 'group', to: GROUP, sees: ['member', 'owner'] },
  { tier: 'one user', to: MEMBER_ID, sees: ['member', 'owner'] },
  { tier: 'owner only (own id)', to: OWNER, sees: ['owner'] },
  { tier: 'owner only (empty)', to: '', sees: ['owner'] },
  { tier: 'deleted public', to: '@public', deleted: true, sees: [] },
  { tier: 'deleted circle', to: CIRCLE, deleted: true, sees: [] },
];

/** `capabilityAllows(capability, { to: ownerTo, actorId: OWNER }, viewer)`: who may reply/react. */
export const CAPABILITY_TABLE: Array<{ capability: string; ownerTo: string; allows: ViewerName[] }> = [
  // Unset: the object's own audience, but never an anonymous caller.
  { capability: '', ownerTo: '@public', allows: AUTHENTICATED },
  { capability: '', ownerTo: CIRCLE, allows: ['member', 'owner', 'remoteServerMember'] },
  { capability: '', ownerTo: `@${DOMAIN}`, allows: LOCALS },
  { capability: '@public', ownerTo: '@public', allows: AUTHENTICATED },
  { capability: '@public', ownerTo: CIRCLE, allows: AUTHENTICATED },
  { capability: `@${DOMAIN}`, ownerTo: '@public', allows: LOCALS },
  { capability: CIRCLE, ownerTo: '@public', allows: ['member', 'owner', 'remoteServerMember'] },
  { capability: GROUP, ownerTo: '@public', allows: ['member', 'owner'] },
  { capability: 'none', ownerTo: '@public', allows: ['owner'] },
  { capability: 'none', ownerTo: CIRCLE, allows: ['owner'] },
];
