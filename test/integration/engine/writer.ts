/**
 * A separate process of the concurrency suite: opens the SQLite file given in argv, then adds
 * `count` to one counter one `$inc` at a time and one member per step to one set, and exits.
 */
import { openSqlite } from '@agora/common/db/engine';
import { COUNTERS } from './specs';

async function main(): Promise<void> {
  const [file, who, countArg] = process.argv.slice(2);
  const count = Number(countArg);
  const engine = openSqlite({ path: file!, checkIndexes: true });
  const c = engine.collection(COUNTERS);
  for (let i = 0; i < count; i++) {
    await c.updateOne(
      { _id: 'shared' },
      { $inc: { n: 1 }, $addToSet: { members: `${who}-${i}` } },
      { upsert: true },
    );
  }
  await engine.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
