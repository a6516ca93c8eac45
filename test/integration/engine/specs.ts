/** Collections shared by the concurrency suite and its writer processes. */
import type { CollectionSpec, Doc } from '@agora/common/db/engine';

export const COUNTERS: CollectionSpec = { name: 'counters', indexes: [] };
export const MEMBERSHIPS: CollectionSpec = {
  name: 'memberships',
  indexes: [
    {
      fields: [
        ['circle', 1],
        ['member', 1],
      ],
      unique: true,
      serves: 'one membership per member',
    },
  ],
};

export interface Counter extends Doc {
  n?: number;
  members?: string[];
}

export interface Membership extends Doc {
  circle: string;
  member: string;
}
