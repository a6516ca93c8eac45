import type { AreaHandlers } from '../registry';

export const libraryHandlers: AreaHandlers = {};
