/**
 * An account goes away (its owner's delete, an admin's full delete, a peer's Delete of its
 * actor): what it authored is withdrawn at once (AccountContentStore) and every cached read that
 * could still show it is stamped stale: its viewer stamp, its posts and the circles that held them.
 */
import type { AccountContentStore } from '../db/repositories/account-content';
import { STAMPS, type StampStore } from './stamps';

export async function withdrawAccount(
  deps: { stores: { accountContent: AccountContentStore }; stamps: StampStore },
  accountId: string,
  by: string,
  at: Date = new Date(),
): Promise<void> {
  const gone = await deps.stores.accountContent.withdraw(accountId, at, by);
  await deps.stamps.bump([
    STAMPS.viewer(accountId),
    ...gone.postIds.map(STAMPS.post),
    ...gone.circleIds.map(STAMPS.circle),
  ]);
}
