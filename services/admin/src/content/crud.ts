/**
 * The shared CRUD shape of spec 4.5 for posts, circles, groups, pages, sections and
 * recommendations: list (with `deleted`), detail, create, update, soft delete, `fullDelete=true`,
 * restore. Each group supplies its store calls and rules; this module owns the shape: the 400s
 * for bad ids and flags, the 404s, the 409s for a delete or restore that has nothing to do, the
 * bodies (`{ ok, <name> }`, `{ ok, hardDeleted }`), and recording every write with its events.
 * Every check runs before the first write, so a refused request changes nothing.
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import type { DeletedMode } from '@agora/common/db';
import { Conflict, NotFound } from '@agora/common/errors';
import {
  Router,
  collectionFor,
  handler,
  parsePaging,
  setAll,
  type AuthUser,
  type Paging,
} from '@agora/common/http';
import { idString, parseInput as parse } from '@agora/common/validation';
import type { DomainEvent } from '@agora/common/messaging';
import { recordAdminWrite } from './write';

export type Row = Record<string, unknown>;

export interface RowPage {
  total: number;
  items: Row[];
}

/** What a create or update produced: the stored row and the events it publishes. */
export interface Written {
  row: Row;
  events: DomainEvent[];
  to?: string | undefined;
}

export interface CrudSpec {
  /** Singular name of the response key (`post`, `circle`, …). */
  name: string;
  /** The object type in messages and the audit log (`Post`, `Circle`, …). */
  type: string;
  list(query: Record<string, unknown>, deleted: DeletedMode, paging: Paging): Promise<RowPage>;
  find(id: string): Promise<Row | null>;
  /** Store fields clients never see, besides `_id`, `__v` and `signature`. */
  hidden?: string[];
  create?: (body: Record<string, unknown>, admin: AuthUser) => Promise<Written>;
  /** Checks (ownership, input) before anything is written, then writes. */
  update?: (row: Row, body: Record<string, unknown>, admin: AuthUser) => Promise<Written>;
  /** Throws when this admin may not delete (soft or full) the row. */
  assertDeletable?(row: Row): Promise<void> | void;
  /** Throws when this row may not be restored. */
  assertRestorable?(row: Row): Promise<void> | void;
  softDelete(id: string, by: string): Promise<boolean>;
  restore(id: string): Promise<boolean>;
  hardDelete(id: string): Promise<boolean>;
  /** Events of a delete (soft or full) and of a restore. */
  deletedEvents?(row: Row, admin: AuthUser): DomainEvent[];
  restoredEvents?(row: Row, admin: AuthUser): DomainEvent[];
}

const deletedQuery = z.enum(['true', 'include', 'false']).optional();
const flag = z.enum(['true', 'false']).optional();

export function deletedModeOf(query: Record<string, unknown>): DeletedMode {
  const v = parse(deletedQuery, query.deleted, 'deleted');
  return v === 'true' ? 'deleted' : v === 'include' ? 'include' : 'live';
}

export function crudRouter(ctx: AdminContext, spec: CrudSpec): Router {
  const r = Router();
  const label = spec.type;
  const hidden = new Set(['_id', '__v', 'signature', ...(spec.hidden ?? [])]);
  const present = (row: Row | null): Row | null =>
    row ? Object.fromEntries(Object.entries(row).filter(([k]) => !hidden.has(k))) : null;

  const load = async (raw: string | undefined): Promise<{ id: string; row: Row }> => {
    const id = parse(idString, raw, 'id');
    const row = await spec.find(id);
    if (!row) throw new NotFound(`${label} not found`);
    return { id: String(row.id), row };
  };

  const respond = (set: (k: string, v: unknown) => void, row: Row | null) => {
    set('ok', true);
    set(spec.name, present(row));
  };

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const deleted = deletedModeOf(query);
      const paging = parsePaging(query);
      const { total, items } = await spec.list(query, deleted, paging);
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items.map(present)));
    }),
  );

  r.get(
    '/:id',
    handler(async ({ params, set }) => {
      set(spec.name, present((await load(params.id)).row));
    }),
  );

  if (spec.create) {
    const create = spec.create;
    r.post(
      '/',
      handler(async ({ body, user, set, setStatus }) => {
        const out = await create(body, user!);
        await recordAdminWrite(ctx, user!, {
          type: 'Create',
          objectType: label,
          objectId: String(out.row.id),
          to: out.to,
          object: present(out.row),
          events: out.events,
        });
        setStatus(201);
        respond(set, out.row);
      }),
    );
  }

  if (spec.update) {
    const update = spec.update;
    r.patch(
      '/:id',
      handler(async ({ params, body, user, set }) => {
        const { row } = await load(params.id);
        const out = await update(row, body, user!);
        await recordAdminWrite(ctx, user!, {
          type: 'Update',
          objectType: label,
          objectId: String(row.id),
          to: out.to,
          object: present(out.row),
          events: out.events,
        });
        respond(set, out.row);
      }),
    );
  }

  r.delete(
    '/:id',
    handler(async ({ params, query, user, set }) => {
      const full = parse(flag, query.fullDelete, 'fullDelete') === 'true';
      const { id, row } = await load(params.id);
      await spec.assertDeletable?.(row);
      if (full) {
        await spec.hardDelete(id);
        // A row already soft-deleted told its audience when it was deleted.
        const events = row.deletedAt ? [] : (spec.deletedEvents?.(row, user!) ?? []);
        await recordAdminWrite(ctx, user!, { type: 'Delete', objectType: label, objectId: id, events });
        set('ok', true);
        set('hardDeleted', true);
        return;
      }
      if (row.deletedAt || !(await spec.softDelete(id, user!.id)))
        throw new Conflict(`${label} already deleted`);
      await recordAdminWrite(ctx, user!, {
        type: 'Delete',
        objectType: label,
        objectId: id,
        events: spec.deletedEvents?.(row, user!) ?? [],
      });
      respond(set, await spec.find(id));
    }),
  );

  r.post(
    '/:id/restore',
    handler(async ({ params, user, set }) => {
      const { id, row } = await load(params.id);
      if (!row.deletedAt) throw new Conflict(`${label} is not deleted`);
      await spec.assertRestorable?.(row);
      if (!(await spec.restore(id))) throw new Conflict(`${label} is not deleted`);
      const restored = await spec.find(id);
      await recordAdminWrite(ctx, user!, {
        type: 'Undo',
        objectType: label,
        objectId: id,
        events: spec.restoredEvents?.(restored ?? row, user!) ?? [],
      });
      respond(set, restored);
    }),
  );
  return r;
}
