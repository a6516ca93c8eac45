/** Flags (reports) and registration invites. Both collections stay small; their lists are scans. */
import type { FlagDoc, InviteDoc, Models } from '../models';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';

export type FlagRecord = FlagDoc & { id: string; createdAt?: Date; updatedAt?: Date };
export type InviteRecord = InviteDoc & { id: string; createdAt?: Date; updatedAt?: Date };

export class FlagsStore extends ObjectStore<FlagRecord> {
  constructor(models: Models) {
    super(models.Flag);
  }

  /** The actor's open flag of the same target for the same reason (one report, not many). */
  async openTwin(actorId: string, target: string, reasonCode: string): Promise<FlagRecord | null> {
    return this.model
      .findOne({ actorId, target, status: 'open', 'reason.code': reasonCode })
      .lean<FlagRecord>();
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<FlagRecord> {
    return this.insert(doc);
  }

  /** GET /admin/flagged: by status (all when omitted), target type and reporter, newest first (a scan). */
  async pageForAdmin(
    filter: { status?: string; targetType?: string; actorId?: string },
    req: PageRequest,
  ): Promise<FoundRows<FlagRecord>> {
    return this.page({ ...filter }, req, { createdAt: -1, _id: -1 }, { _id: 0, __v: 0 });
  }

  /**
   * Closes an open flag (resolved or dismissed) by an admin; false when it was not open, so of
   * concurrent closes exactly one wins. The filter keeps `status` because the transition must
   * be conditional.
   */
  async close(
    id: string,
    close: { status: 'resolved' | 'dismissed'; notes?: string; resolvedBy: string },
  ): Promise<boolean> {
    const res = await this.model.updateOne(
      { _id: id, status: 'open' },
      {
        $set: {
          status: close.status,
          ...(close.notes !== undefined ? { notes: close.notes } : {}),
          resolvedAt: new Date(),
          resolvedBy: close.resolvedBy,
        },
      },
    );
    return res.matchedCount === 1;
  }

  /** Open flags (GET /admin/system): a count over the collection, admin only. */
  async countOpen(): Promise<number> {
    return this.model.countDocuments({ status: 'open' });
  }
}

export class InvitesStore extends ObjectStore<InviteRecord> {
  constructor(models: Models) {
    super(models.Invite);
  }

  async byCode(code: string): Promise<InviteRecord | null> {
    return this.model.findOne({ code }).lean<InviteRecord>();
  }

  /**
   * Takes one redemption slot; false when it went to someone else meanwhile. The filter repeats
   * the limit check so two concurrent registrations cannot both take the last slot; it stays on
   * scalar fields because FerretDB 1.24 mishandles array paths in update filters.
   */
  async claim(
    invite: Pick<InviteRecord, 'id'>,
    limit: number | null,
    redemption: { userId: string; email: string | null },
  ): Promise<boolean> {
    const res = await this.model.updateOne(
      {
        _id: invite.id,
        active: true,
        deletedAt: null,
        ...(limit === null ? { type: 'open', maxRedemptions: null } : { redemptionCount: { $lt: limit } }),
      },
      { $inc: { redemptionCount: 1 }, $push: { redemptions: { ...redemption, redeemedAt: new Date() } } },
    );
    return res.modifiedCount === 1;
  }

  async create(doc: Record<string, unknown> & { id: string }): Promise<InviteRecord> {
    return this.insert(doc);
  }

  /** GET /admin/invites: live invites by type and active flag, newest first (a scan). */
  async pageForAdmin(
    filter: { type?: string; active?: boolean },
    req: PageRequest,
  ): Promise<FoundRows<InviteRecord>> {
    return this.page({ deletedAt: null, ...filter }, req, { createdAt: -1, _id: -1 });
  }

  /** Stops an invite from being redeemed (the row and its history stay); the invite after. */
  async deactivate(id: string): Promise<InviteRecord | null> {
    return this.set(id, { active: false });
  }

  /** Active invites (GET /admin/system): a count over the collection, admin only. */
  async countActive(): Promise<number> {
    return this.model.countDocuments({ active: true, deletedAt: null });
  }

  /** Gives a slot back (the account could not be created after all). */
  async release(inviteId: string, userId: string): Promise<void> {
    const invite = await this.byId(inviteId);
    const el = (invite?.redemptions ?? []).find((r) => r.userId === userId);
    await this.model.updateOne(
      { _id: inviteId },
      { $inc: { redemptionCount: -1 }, ...(el ? { $pull: { redemptions: el } } : {}) },
    );
  }
}
