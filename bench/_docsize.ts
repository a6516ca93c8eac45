import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mongoose from 'mongoose';
import { spawnFerretDB } from '@agora/common/db';
async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'docsize-'));
  const f = await spawnFerretDB({ bin: resolve('.tools/bin/ferretdb'), dataDir: dir, sqliteSync: 'normal' });
  const c = await mongoose.createConnection(`${f.url}bench`).asPromise();
  const col = c.db!.collection<any>('t');
  await col.insertOne({ _id: 'x' });
  (f as any).ensureIdIndexes();
  const n = 32;
  const id = (i: number) => `https://bench.example/posts/01J${i}ABCDEFGHJKMNPQRSTVWX`;
  const by = (i: number) => `https://bench.example/users/user${i}`;
  const shapes: Record<string, unknown> = {
    empty: 'x',
    s1k: 'x'.repeat(1000),
    s4k: 'x'.repeat(4000),
    s16k: 'x'.repeat(16000),
    sub8: Array.from({ length: 8 }, (_, i) => ({ id: id(i), at: new Date(), by: by(i) })),
    sub16: Array.from({ length: 16 }, (_, i) => ({ id: id(i), at: new Date(), by: by(i) })),
    sub32: Array.from({ length: n }, (_, i) => ({ id: id(i), at: new Date(), by: by(i) })),
    sub64: Array.from({ length: 64 }, (_, i) => ({ id: id(i), at: new Date(), by: by(i) })),
    strings32: Array.from({ length: n }, (_, i) => `${Date.now().toString(36)} ${id(i)} ${by(i)}`),
    dates64: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`d${i}`, new Date()])),
    nums64: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`d${i}`, Date.now()])),
  };
  let k = 0;
  for (const round of [1, 2]) for (const [name, items] of Object.entries(shapes)) {
    k++;
    for (let d = 0; d < 20; d++) await col.insertOne({ _id: `${k}${name}d${d}`, v: 0, items });
    const ops = 300;
    let t = performance.now();
    for (let i = 0; i < ops; i++) await col.updateOne({ _id: `${k}${name}d${i % 20}` }, { $inc: { v: 1 } });
    const inc = (performance.now() - t) / ops;
    t = performance.now();
    for (let i = 0; i < ops; i++) await col.findOne({ _id: `${k}${name}d${i % 20}` });
    const find = (performance.now() - t) / ops;
    t = performance.now();
    for (let i = 0; i < 30; i++) await col.bulkWrite(Array.from({length:10},(_,j)=>({updateOne:{filter:{_id:`${k}${name}d${j}`},update:{$inc:{v:1}}}})), {ordered:false});
    const bulk10 = (performance.now() - t) / 30;
    console.log(`${round} ${name} bytes ${JSON.stringify(items).length}: update ${inc.toFixed(2)} ms, find ${find.toFixed(2)} ms, bulk10 ${bulk10.toFixed(2)}`);
  }
  await c.close(); process.exit(0);
}
void main();
