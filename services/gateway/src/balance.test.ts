import { replicaPool } from './balance';

describe('replicaPool', () => {
  it('rotates over every replica', () => {
    const pool = replicaPool(['a', 'b', 'c']);
    expect([pool.pick(), pool.pick(), pool.pick(), pool.pick()]).toEqual(['a', 'b', 'c', 'a']);
  });

  it('skips a replica marked down until its pause is over', () => {
    let t = 0;
    const pool = replicaPool(['a', 'b'], { downMs: 1000, now: () => t });
    pool.markDown('a');
    expect([pool.pick(), pool.pick(), pool.pick()]).toEqual(['b', 'b', 'b']);
    t = 1001;
    expect(new Set([pool.pick(), pool.pick()])).toEqual(new Set(['a', 'b']));
  });

  it('keeps rotating when every replica is down, and never picks an excluded one', () => {
    const pool = replicaPool(['a', 'b']);
    pool.markDown('a');
    pool.markDown('b');
    expect(new Set([pool.pick(), pool.pick()])).toEqual(new Set(['a', 'b']));
    expect(pool.pick(new Set(['b']))).toBe('a');
    expect(pool.pick(new Set(['a', 'b']))).toBeUndefined();
  });
});
