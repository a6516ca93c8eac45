/** The engine port and its two adapters (ADR 0013). */
export * from './port';
export { isCovered, assertCovered } from './coverage';
export { compareValues, matches, applyUpdate } from './documents';
export { openSqlite, type SqliteOptions } from './sqlite/engine';
export { mongoEngine, openMongo, type MongoOptions, type FerretDBMode } from './mongo/engine';
export { FerretDBShared } from './mongo/ferretdb';
export { indexName } from './sqlite/sql';
/** The adapters' collection classes (bench/outbox-profile.ts counts the calls on them). */
export { SqliteCollection } from './sqlite/collection';
export { MongoCollection } from './mongo/collection';
