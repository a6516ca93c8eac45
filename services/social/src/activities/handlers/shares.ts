/** Shares (boosts) of public posts: Announce (ADR 0024); their Undo is in interactions/undo.ts. */
import type { AreaHandlers } from '../registry';
import { announce } from './shares/announce';

export const shareHandlers: AreaHandlers = { types: { Announce: announce } };
