/** /admin/settings (spec 4.5): list, bulk update, single update. */
import type { Request } from 'express';
import { z } from 'zod';
import { BadRequest, NotFound } from '@agora/common/errors';
import { Router, handler } from '@agora/common/http';
import type { AdminContext } from '../context';
import { parseInput as parse } from '@agora/common/validation';
import { presentSetting, type SettingRow } from './present';
import { isBlocked, prepareValue } from './write';

const settingName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.-]+$/, 'must be a setting name');

function blockedMessage(names: string[]): string {
  return `Cannot update read-only settings: ${names.join(', ')}`;
}

/** The raw body as an object of setting names (the handler turns non-objects into `{}`). */
function bulkBody(req: Request): Record<string, unknown> {
  const raw: unknown = req.body;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new BadRequest('body: must be an object of setting names and values');
  }
  const body = raw as Record<string, unknown>;
  const names = Object.keys(body);
  if (names.length === 0) throw new BadRequest('body: must name at least one setting');
  for (const n of names) parse(settingName, n, 'body');
  return body;
}

export function settingsRouter(ctx: AdminContext): Router {
  const r = Router();
  const settings = ctx.stores.settings;

  r.get(
    '/',
    handler(async ({ set }) => {
      const rows: SettingRow[] = await settings.listAll();
      set('settings', rows.map(presentSetting));
      set('total', rows.length);
    }),
  );

  // Bulk update: all or nothing. Every check (read-only, unknown, value type) runs first.
  r.patch(
    '/',
    handler(async ({ req, set, setStatus }) => {
      const body = bulkBody(req);
      const names = Object.keys(body);
      const byName: Map<string, SettingRow> = await settings.recordsByName(names);
      const rows = [...byName.values()];
      const blocked = rows.filter(isBlocked).map((s) => s.name);
      if (blocked.length) {
        setStatus(403);
        set('error', blockedMessage(blocked));
        set('blocked', blocked);
        return;
      }
      // Settings are defined by the server; creating one here would publish it (to defaults @public).
      const unknown = names.filter((n) => !byName.has(n));
      if (unknown.length) throw new BadRequest(`Unknown settings: ${unknown.join(', ')}`);
      const values = names.map((n) => ({ name: n, value: prepareValue(byName.get(n)!, body[n]) }));
      await settings.writeValues(values);
      set('ok', true);
      set('updated', names);
    }),
  );

  // One setting by name (the client library's getSetting), redacted like the list.
  r.get(
    '/:name',
    handler(async ({ params, set }) => {
      const name = parse(settingName, params.name, 'name');
      const row = await ctx.stores.settings.findDefinition(name);
      if (!row) throw new NotFound('Setting not found');
      set('setting', presentSetting(row as unknown as SettingRow));
    }),
  );

  r.patch(
    '/:name',
    handler(async ({ params, body, set, setStatus }) => {
      const name = parse(settingName, params.name, 'name');
      if (!('value' in body)) throw new BadRequest('value: required');
      const row = (await settings.recordsByName([name])).get(name);
      if (!row) throw new NotFound('Setting not found');
      if (isBlocked(row)) {
        setStatus(403);
        set('error', blockedMessage([name]));
        set('blocked', [name]);
        return;
      }
      const value = prepareValue(row, body.value);
      const [saved] = await settings.writeValues([{ name, value }]);
      set('ok', true);
      set('setting', presentSetting(saved ?? { ...row, value }));
    }),
  );
  return r;
}
