import type { AreaHandlers } from '../registry';

export const groupHandlers: AreaHandlers = {};
