/** Database figures for GET /admin/system (best effort: FerretDB answers `dbStats` partly; SQLite: counts). */
import type { Database } from './connection';

const kb = (bytes: unknown) => (typeof bytes === 'number' ? Math.round(bytes / 1024) : undefined);

export interface DatabaseStats {
  name: string;
  collections?: unknown;
  objects?: unknown;
  dataKb?: number;
  storageKb?: number;
  indexKb?: number;
  totalKb?: number;
}

export async function databaseStats(database: Database): Promise<DatabaseStats> {
  // SQLite: the collections the engine holds (the file's size is on the disk figures).
  if (!database.conn) return { name: 'sqlite', collections: (await database.engine.names()).length };
  const db = database.conn.db;
  if (!db) return { name: database.conn.name };
  try {
    const s = (await db.stats()) as Record<string, unknown>;
    return {
      name: db.databaseName,
      collections: s.collections,
      objects: s.objects,
      dataKb: kb(s.dataSize),
      storageKb: kb(s.storageSize),
      indexKb: kb(s.indexSize),
      totalKb: kb(s.totalSize),
    };
  } catch {
    const collections = await db.listCollections({}, { nameOnly: true }).toArray();
    return { name: db.databaseName, collections: collections.length };
  }
}
