/**
 * Puts the staged collections in place (docs/adr/0007-backup-archive.md). No transactions, and
 * the engine port renames only to a name that is free (`Engine.rename`), so each collection is
 * swapped by two renames: the live one to a retired name, the staged one to the live name. Collections the
 * archive does not hold are retired too. If any rename fails, every swap done so far is undone
 * (retired collections renamed back); only when all succeeded are the retired ones dropped.
 */
import { RETIRED_PREFIX } from '@agora/common/db';
import type { BackupContext } from '../context';
import type { JobLease } from '../lease';

export interface SwapReport {
  replaced: string[];
  dropped: string[];
}

interface Step {
  name: string;
  retiredAs?: string;
  /** A staged collection was (or was about to be) renamed to `name`. */
  staged: boolean;
}

export async function swapCollections(
  ctx: BackupContext,
  lease: JobLease,
  tag: string,
  staged: Map<string, string>,
  record: (report: SwapReport) => Promise<void>,
): Promise<SwapReport> {
  const store = ctx.stores.collections;
  const live = new Set(await store.applicationCollections());
  const report: SwapReport = { replaced: [], dropped: [] };
  const steps: Step[] = [];
  const retire = async (name: string): Promise<string | undefined> => {
    if (!live.has(name)) return undefined;
    const retiredAs = `${RETIRED_PREFIX}${tag}_${name}`;
    await store.rename(name, retiredAs);
    return retiredAs;
  };
  try {
    for (const [name, staging] of staged) {
      lease.check();
      const step: Step = { name, staged: true };
      steps.push(step);
      const retiredAs = await retire(name);
      if (retiredAs) step.retiredAs = retiredAs;
      await store.rename(staging, name);
      report.replaced.push(name);
      await record(report);
    }
    for (const name of live) {
      if (staged.has(name)) continue;
      lease.check();
      const step: Step = { name, staged: false };
      steps.push(step);
      const retiredAs = await retire(name);
      if (retiredAs) step.retiredAs = retiredAs;
      report.dropped.push(name);
      await record(report);
    }
  } catch (err) {
    await rollBack(ctx, steps, err as Error);
    throw new Error(
      `swapping collections failed (${(err as Error).message}); every collection was put back as it was`,
    );
  }
  for (const s of steps) if (s.retiredAs) await store.drop(s.retiredAs);
  return report;
}

async function rollBack(ctx: BackupContext, steps: Step[], cause: Error): Promise<void> {
  const store = ctx.stores.collections;
  for (const s of [...steps].reverse()) {
    try {
      if (
        s.staged &&
        s.retiredAs !== undefined &&
        (await store.exists(s.retiredAs)) &&
        (await store.exists(s.name))
      )
        await store.drop(s.name);
      if (s.staged && s.retiredAs === undefined && (await store.exists(s.name))) await store.drop(s.name);
      if (s.retiredAs && (await store.exists(s.retiredAs))) await store.rename(s.retiredAs, s.name);
    } catch (err) {
      // Left as it is: the retired collection keeps the data under its retired name.
      ctx.logger.error(
        { collection: s.name, retiredAs: s.retiredAs, err: (err as Error).message, cause: cause.message },
        'restore rollback could not put a collection back; its data is under the retired name',
      );
      throw new Error(
        `swap failed (${cause.message}) and rolling back ${s.name} failed too (${(err as Error).message}); ` +
          `its previous data is in ${s.retiredAs ?? '(none)'}`,
      );
    }
  }
}
