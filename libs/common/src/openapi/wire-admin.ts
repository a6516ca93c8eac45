/** Response bodies of the admin API the dashboard reads (see wire.ts for the rules). */
import { z } from 'zod';
import { Profile, wireRegistry } from './wire';

function component<S extends z.ZodType>(id: string, schema: S): S {
  wireRegistry.add(schema, { id });
  return schema;
}

const str = z.string();
const optStr = z.string().optional();
const nullableStr = z.string().nullable();

export const Flag = component(
  'Flag',
  z.object({
    id: str,
    status: z.enum(['open', 'resolved', 'dismissed']),
    targetType: optStr,
    target: optStr,
    actorId: optStr,
    reason: z.union([str, z.object({ label: optStr, code: optStr })]).optional(),
    notes: optStr,
    createdAt: optStr,
  }),
);

export const KnownServer = component(
  'KnownServer',
  z.object({
    domain: str,
    lastSeenAt: nullableStr,
    lastSeenVia: nullableStr,
    circuit: z.object({ state: z.enum(['closed', 'open', 'half-open']), until: nullableStr }),
    software: z.object({ name: str, version: str }).nullable(),
    compatible: z.boolean().nullable(),
    nodeinfoError: nullableStr,
    blocked: z.boolean(),
    blockedAt: nullableStr,
    blockReason: nullableStr,
    refusedInbound: z.number(),
    heldDeliveries: z.number(),
    deadDeliveries: z.number(),
  }),
);

export const AdminUser = component(
  'AdminUser',
  z.object({
    id: str,
    username: str,
    email: nullableStr.optional(),
    active: z.boolean().optional(),
    deletedAt: nullableStr.optional(),
    createdAt: optStr,
    profile: Profile.optional(),
  }),
);

export const Setting = component(
  'Setting',
  z.object({
    name: str,
    value: z.unknown(),
    summary: str,
    to: str,
    canEdit: str,
    ui: z.object({ type: nullableStr.optional() }),
  }),
);

export const Invite = component(
  'Invite',
  z.object({
    id: str,
    code: str,
    type: z.enum(['individual', 'open']),
    email: optStr,
    maxRedemptions: z.number().nullable().optional(),
    redemptions: z.number().optional(),
    redemptionCount: z.number().optional(),
    expiresAt: nullableStr.optional(),
    note: optStr,
    active: z.boolean(),
  }),
);

export const SystemStats = component(
  'SystemStats',
  z.object({
    counts: z.record(z.string(), z.number()),
    db: z.record(z.string(), z.unknown()).nullable(),
    disk: z
      .object({ total: z.number().optional(), free: z.number().optional(), used: z.number().optional() })
      .nullable(),
    process: z.object({
      uptime: z.number(),
      node: str,
      memory: z.object({ rss: z.number(), heapUsed: z.number() }),
    }),
  }),
);

export const BackupJob = component(
  'BackupJob',
  z.object({
    id: str,
    kind: optStr,
    type: optStr,
    status: z.enum(['pending', 'running', 'done', 'failed']),
    progress: z.object({ stage: optStr, pct: z.number().optional() }).optional(),
    error: optStr,
    createdAt: optStr,
    finishedAt: optStr,
    size: z.number().optional(),
  }),
);

export const Recommendation = component(
  'Recommendation',
  z.object({
    id: str,
    ref: str,
    section: str,
    note: optStr,
    order: z.number().optional(),
    active: z.boolean().optional(),
    // The live target in words (absent once it is gone).
    target: z
      .object({
        id: str,
        name: optStr,
        title: optStr,
        summary: optStr,
        type: optStr,
        slug: optStr,
        actor: z.object({ id: str, name: nullableStr.optional() }).optional(),
      })
      .optional(),
  }),
);

export const Section = component(
  'Section',
  z.object({
    id: str,
    name: str,
    summary: optStr,
    order: z.number().optional(),
    to: optStr,
    active: z.boolean().optional(),
    items: z.array(Recommendation).optional(),
  }),
);

export const DiscoverCard = component(
  'DiscoverCard',
  z.object({
    id: str,
    refType: str,
    recommendation: str,
    note: optStr,
    type: optStr,
    title: optStr,
    name: optStr,
    summary: nullableStr.optional(),
    slug: optStr,
    actor: z.object({ id: str, name: nullableStr.optional() }).optional(),
    memberCount: z.number().optional(),
  }),
);

export const DiscoverShelf = component(
  'DiscoverShelf',
  z.object({ id: str, name: str, slug: optStr, summary: optStr, items: z.array(DiscoverCard) }),
);

export const UploadedFile = component(
  'UploadedFile',
  z.object({
    id: str,
    url: optStr,
    mediaType: optStr,
    type: optStr,
    width: z.number().optional(),
    height: z.number().optional(),
    description: optStr,
  }),
);
