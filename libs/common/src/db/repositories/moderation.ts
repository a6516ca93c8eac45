/**
 * Flags (reports) and registration invites, written over the engine port (ADR 0013). Both
 * collections stay small; every list is read through an index naming it, and every transition
 * that must have one winner (closing a flag, taking an invite's last slot) is a conditional
 * single-document update.
 */
import type { CollectionSpec, Engine, Filter, Sort } from '../engine/port';
import type { FoundRows, PageRequest } from './object-collection';
import { PortObjectStore, type ObjectRow } from './port-objects';

export const FLAG_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

export type FlagReason = {
  code: string;
  label?: string;
  description?: string;
  details?: string;
};

export type FlagRecord = ObjectRow & {
  target: string;
  targetType?: string | null;
  targetActorId?: string | null;
  reason: FlagReason;
  notes?: string;
  actorId: string;
  status: FlagStatus;
  resolvedAt?: Date;
  resolvedBy?: string;
  server?: string;
  /** The reporter asked for the flag of a remote object to go to its server too. */
  forward?: boolean;
};

export type NewFlag = Omit<FlagRecord, '_id' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'status'>;

const NEWEST: Sort = [
  ['createdAt', -1],
  ['_id', -1],
];

export const FLAGS: CollectionSpec = {
  name: 'flags',
  indexes: [
    // GET /admin/flagged (status given, or all three by $in) and the open count of /admin/system.
    {
      fields: [
        ['status', 1],
        ['createdAt', -1],
      ],
      serves: 'flags.pageForAdmin by status; countOpen',
    },
    {
      fields: [
        ['status', 1],
        ['targetType', 1],
        ['createdAt', -1],
      ],
      serves: 'flags.pageForAdmin by status and targetType',
    },
    {
      fields: [
        ['status', 1],
        ['actorId', 1],
        ['createdAt', -1],
      ],
      serves: 'flags.pageForAdmin by status and reporter',
    },
    {
      fields: [
        ['status', 1],
        ['targetType', 1],
        ['actorId', 1],
        ['createdAt', -1],
      ],
      serves: 'flags.pageForAdmin by status, targetType and reporter',
    },
    // The duplicate check of POST /outbox Flag: the reporter's open flag of a target for a reason.
    {
      fields: [
        ['actorId', 1],
        ['target', 1],
        ['status', 1],
        ['reason.code', 1],
      ],
      serves: 'flags.openTwin',
    },
  ],
  dates: ['createdAt', 'updatedAt', 'resolvedAt', 'deletedAt'],
};

export class FlagsStore extends PortObjectStore<FlagRecord> {
  constructor(engine: Engine) {
    super(engine, FLAGS);
  }

  /** The actor's open flag of the same target for the same reason (one report, not many). */
  async openTwin(actorId: string, target: string, reasonCode: string): Promise<FlagRecord | null> {
    return this.rows.findOne({ actorId, target, status: 'open', 'reason.code': reasonCode });
  }

  /** A new open flag. */
  async create(flag: NewFlag): Promise<FlagRecord> {
    const { details, ...reason } = flag.reason;
    return this.insertNew({
      ...withoutUndefined(flag),
      reason: withoutUndefined({ ...reason, ...(details ? { details } : {}) }),
      status: 'open',
    });
  }

  /** GET /admin/flagged: by status (all when omitted), target type and reporter, newest first. */
  async pageForAdmin(
    q: { status?: FlagStatus | undefined; targetType?: string | undefined; actorId?: string | undefined },
    req: PageRequest,
  ): Promise<FoundRows<FlagRecord>> {
    // "All statuses" is the three of them, so every shape starts with `status` (four indexes
    // instead of eight).
    const filter: Filter = { status: q.status ?? { $in: [...FLAG_STATUSES] } };
    if (q.targetType) filter.targetType = q.targetType;
    if (q.actorId) filter.actorId = q.actorId;
    return this.page(filter, req, NEWEST);
  }

  /**
   * Closes an open flag (resolved or dismissed) by an admin; false when it was not open, so of
   * concurrent closes exactly one wins (the write is conditional on `status: 'open'`).
   */
  async close(
    id: string,
    close: { status: 'resolved' | 'dismissed'; notes?: string; resolvedBy: string },
  ): Promise<boolean> {
    const now = new Date();
    const res = await this.rows.updateOne(
      { _id: id, status: 'open' },
      {
        $set: {
          status: close.status,
          ...(close.notes !== undefined ? { notes: close.notes } : {}),
          resolvedAt: now,
          resolvedBy: close.resolvedBy,
          updatedAt: now,
        },
      },
    );
    return res.matched === 1;
  }

  /** Open flags (GET /admin/system). */
  async countOpen(): Promise<number> {
    return this.rows.count({ status: 'open' });
  }
}

export const INVITE_TYPES = ['individual', 'open'] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

export type Redemption = {
  userId: string;
  email: string | null;
  redeemedAt: Date;
};

export type InviteRecord = ObjectRow & {
  /** The admin who created it. */
  actorId: string;
  server?: string;
  type: InviteType;
  /** Bound address of an individual invite, stored lower-cased (compared case-insensitively). */
  email?: string;
  code: string;
  url?: string;
  /** null = unlimited; an individual invite is single-use (1). */
  maxRedemptions: number | null;
  redemptionCount: number;
  redemptions: Redemption[];
  active: boolean;
  expiresAt: Date | null;
  note?: string;
  welcomeMessage?: string;
};

export type NewInvite = Pick<InviteRecord, 'id' | 'actorId' | 'type' | 'code'> &
  Partial<
    Pick<
      InviteRecord,
      'server' | 'email' | 'url' | 'maxRedemptions' | 'expiresAt' | 'note' | 'welcomeMessage'
    >
  >;

export const INVITES: CollectionSpec = {
  name: 'invites',
  indexes: [
    // GET /invites/:code and registration; unique so a (very unlikely) collision of two random
    // codes fails the insert instead of sharing a code.
    { fields: [['code', 1]], unique: true, serves: 'invites.byCode' },
    // GET /admin/invites (type given, or both by $in), newest first.
    {
      fields: [
        ['type', 1],
        ['createdAt', -1],
      ],
      serves: 'invites.pageForAdmin',
    },
    {
      fields: [
        ['type', 1],
        ['active', 1],
        ['createdAt', -1],
      ],
      serves: 'invites.pageForAdmin by active; countActive',
    },
  ],
  dates: ['createdAt', 'updatedAt', 'expiresAt', 'deletedAt', 'redemptions.redeemedAt'],
};

/** Compare-and-set attempts of a release before it gives up (each loses only to a redemption). */
const RELEASE_ATTEMPTS = 20;

export class InvitesStore extends PortObjectStore<InviteRecord> {
  constructor(engine: Engine) {
    super(engine, INVITES);
  }

  async byCode(code: string): Promise<InviteRecord | null> {
    if (typeof code !== 'string') return null;
    return this.rows.findOne({ code });
  }

  async create(invite: NewInvite): Promise<InviteRecord> {
    return this.insertNew({
      ...withoutUndefined(invite),
      ...(invite.email !== undefined ? { email: invite.email.trim().toLowerCase() } : {}),
      maxRedemptions: invite.maxRedemptions ?? null,
      expiresAt: invite.expiresAt ?? null,
      redemptionCount: 0,
      redemptions: [],
      active: true,
      deletedAt: null,
    });
  }

  /**
   * Takes one redemption slot; false when it went to someone else meanwhile. The write is
   * conditional on the count still being under the limit, so of N concurrent redeemers of an
   * invite with k slots exactly k succeed.
   */
  async claim(
    invite: Pick<InviteRecord, 'id'>,
    limit: number | null,
    redemption: { userId: string; email: string | null },
  ): Promise<boolean> {
    const res = await this.rows.updateOne(
      {
        _id: invite.id,
        active: true,
        deletedAt: null,
        ...(limit === null ? { type: 'open', maxRedemptions: null } : { redemptionCount: { $lt: limit } }),
      },
      {
        $inc: { redemptionCount: 1 },
        $push: { redemptions: { ...redemption, redeemedAt: new Date() } },
        $set: { updatedAt: new Date() },
      },
    );
    return res.matched === 1;
  }

  /** GET /admin/invites: invites by type and active flag, newest first. */
  async pageForAdmin(
    q: { type?: InviteType | undefined; active?: boolean | undefined },
    req: PageRequest,
  ): Promise<FoundRows<InviteRecord>> {
    const filter: Filter = { type: q.type ?? { $in: [...INVITE_TYPES] } };
    if (q.active !== undefined) filter.active = q.active;
    return this.page(filter, req, NEWEST);
  }

  /** Stops an invite from being redeemed (the row and its history stay); the invite after. */
  async deactivate(id: string): Promise<InviteRecord | null> {
    return this.set(id, { active: false });
  }

  /** Active invites (GET /admin/system). */
  async countActive(): Promise<number> {
    return this.rows.count({ type: { $in: [...INVITE_TYPES] }, active: true });
  }

  /**
   * Gives a slot back (the account could not be created after all): the user's redemption leaves
   * the history and the count goes down by one, in one write conditional on the count read, so
   * a redemption that lands in between makes it read again instead of being lost.
   */
  async release(inviteId: string, userId: string): Promise<void> {
    for (let i = 0; i < RELEASE_ATTEMPTS; i++) {
      const invite = await this.byId(inviteId);
      const at = invite?.redemptions.findIndex((r) => r.userId === userId) ?? -1;
      if (!invite || at < 0) return;
      const res = await this.rows.updateOne(
        { _id: inviteId, redemptionCount: invite.redemptionCount },
        {
          $inc: { redemptionCount: -1 },
          $set: { redemptions: invite.redemptions.filter((_, j) => j !== at), updatedAt: new Date() },
        },
      );
      if (res.matched === 1) return;
    }
    throw new Error(`invite ${inviteId}: release kept losing to concurrent redemptions`);
  }
}

/** The object without its undefined fields (the engines store none). */
function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
