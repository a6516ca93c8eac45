import type { AreaHandlers } from '../registry';

export const userHandlers: AreaHandlers = {};
