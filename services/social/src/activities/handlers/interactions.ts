/**
 * Interactions with existing objects and users (decisions.md §4): Reply, React, Update, Delete,
 * Flag, Block/Unblock, Mute/Unmute, Follow/Unfollow, Undo. Update and Delete are one registry
 * entry each for every kind; User updates are dispatched to the users area (`updateUser`).
 */
import type { AreaHandlers } from '../registry';
import { reply } from './interactions/reply';
import { react } from './interactions/react';
import { update } from './interactions/update';
import { del } from './interactions/delete';
import { flag } from './interactions/flag';
import { relationHandlers } from './interactions/relations';
import { undo } from './interactions/undo';

export const interactionHandlers: AreaHandlers = {
  types: {
    Reply: reply,
    React: react,
    Update: update,
    Delete: del,
    Flag: flag,
    Undo: undo,
    ...relationHandlers,
  },
};
