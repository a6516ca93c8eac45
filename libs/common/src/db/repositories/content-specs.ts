/**
 * The collections of pages, bookmarks and groups (content.ts), each index naming the query it
 * serves. Coverage (engine/coverage.ts) asks that a query's equalities come first in an index,
 * in any order, then its sort, then its other conditions.
 */
import type { CollectionSpec } from '../engine/port';

const STAMPS = ['deletedAt', 'createdAt', 'updatedAt'];

export const PAGES: CollectionSpec = {
  name: 'pages',
  indexes: [
    {
      fields: [
        ['originDomain', 1],
        ['slug', 1],
        ['deletedAt', 1],
      ],
      serves: 'a local page by slug, live (GET /pages/:slug) or not (admin); the slugs taken (freeSlug)',
    },
    {
      fields: [
        ['originDomain', 1],
        ['order', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /admin/pages in menu order',
    },
    {
      fields: [
        ['to', 1],
        ['deletedAt', 1],
        ['order', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /pages: live public pages in menu order',
    },
    {
      fields: [
        ['parentId', 1],
        ['deletedAt', 1],
        ['actorId', 1],
      ],
      serves: "a folder's live children (childrenIn: moves and deletes)",
    },
    {
      fields: [
        ['parentId', 1],
        ['deletedAt', 1],
        ['originDomain', 1],
      ],
      serves: "a folder's live local children counted (countChildren)",
    },
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
      ],
      serves: 'author copies refreshed; an account withdrawn (tombstoneByAuthor)',
    },
    { fields: [['deletedAt', 1]], serves: 'countLive; the GC (deletedAt before a cutoff)' },
    {
      // Every page is this server's (other servers' pages are read from them, never copied), so
      // a slug is held once: two creates or renames racing for one slug cannot both store it.
      fields: [['slug', 1]],
      unique: true,
      serves: 'a slug held by one page only (createUnderFreeSlug, setUnderFreeSlug)',
    },
  ],
  dates: [...STAMPS, 'lastFetchedAt'],
};

export const BOOKMARKS: CollectionSpec = {
  name: 'bookmarks',
  indexes: [
    {
      fields: [
        ['parentFolder', 1],
        ['deletedAt', 1],
        ['actorId', 1],
      ],
      serves: "a folder's live children (childrenIn, childrenOf)",
    },
    {
      fields: [
        ['parentFolder', 1],
        ['deletedAt', 1],
        ['type', 1],
        ['to', 1],
        ['createdAt', -1],
      ],
      serves: "GET /bookmarks: live root items of a type addressed to a viewer's audiences, newest first",
    },
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
        ['type', 1],
        ['parentFolder', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /users/:id/bookmarks of one folder (or the root), newest first',
    },
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
        ['type', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /users/:id/bookmarks in any folder, newest first; author copies; an account withdrawn',
    },
    { fields: [['deletedAt', 1]], serves: 'countLive; the GC (deletedAt before a cutoff)' },
  ],
  dates: STAMPS,
};

export const GROUPS: CollectionSpec = {
  name: 'groups',
  indexes: [
    {
      fields: [
        ['originDomain', 1],
        ['deletedAt', 1],
        ['to', 1],
        ['createdAt', -1],
      ],
      serves: "GET /groups: live local groups addressed to a viewer's audiences, newest first",
    },
    {
      fields: [
        ['rsvpPolicy', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /admin/groups?rsvpPolicy, newest first',
    },
    {
      fields: [
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'GET /admin/groups of live groups; countLive; the GC (deletedAt before a cutoff)',
    },
    { fields: [['createdAt', -1]], serves: 'GET /admin/groups including deleted ones' },
    {
      fields: [
        ['actorId', 1],
        ['originDomain', 1],
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves:
        "GET /groups: a viewer's own live local groups, newest first; author copies refreshed (refreshActorCopy)",
    },
  ],
  dates: STAMPS,
};
