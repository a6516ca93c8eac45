import type { AreaHandlers } from '../registry';

export const interactionHandlers: AreaHandlers = {};
