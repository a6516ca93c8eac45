/**
 * Prepared statements of one connection, by their text: an adapter issues a handful of shapes,
 * each many times, and preparing one costs more than running it. SQLite prepares a statement
 * again by itself after a schema change (a renamed or dropped table).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export class Statements {
  private readonly byText = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {}

  get(sql: string): StatementSync {
    let st = this.byText.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.byText.set(sql, st);
    }
    return st;
  }
}
