/** The library: server pages and users' bookmarks and folders. */
import type { AreaHandlers } from '../registry';
import { createPage } from './library/pages';
import { createBookmark } from './library/bookmarks';

export const libraryHandlers: AreaHandlers = {
  create: { Page: createPage, Bookmark: createBookmark },
};
