/** The activity pipeline's contracts (decisions.md §4). */
import type { Viewer } from '@agora/common/audience';
import type { AuthUser } from '@agora/common/http';
import type { DomainEvent } from '@agora/common/messaging';
import type { SocialContext } from '../context';

/** What a client sends to POST /outbox (validated field by field by each handler). */
export interface ActivityInput {
  type: string;
  objectType?: unknown;
  object?: unknown;
  target?: unknown;
  to?: unknown;
  canReply?: unknown;
  canReact?: unknown;
  summary?: unknown;
  /** Flag of a remote object: also send it to the object's server. */
  forward?: unknown;
}

export interface HandlerContext {
  svc: SocialContext;
  actor: AuthUser;
  viewer: Viewer;
  activity: ActivityInput;
}

export type { DomainEvent } from '@agora/common/messaging';

export interface HandlerResult {
  /** The created or changed object (no secrets). */
  result: Record<string, unknown> | null;
  objectId?: string;
  objectType?: string;
  target?: string;
  to?: string;
  /** Events to publish once the activity is stored. */
  events?: DomainEvent[];
  /**
   * The object `objectId` names exactly as this activity wrote it, when nothing else can have
   * changed it yet (a create: its id is not out): the search entry is built from it instead of
   * reading it back.
   */
  stored?: Record<string, unknown>;
  /**
   * The activity asked for what exists already (a second boost of a post: its share): answered
   * 200 with it rather than 201.
   */
  existing?: boolean;
}

export type ActivityHandler = (ctx: HandlerContext) => Promise<HandlerResult>;
