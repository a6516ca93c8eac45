/**
 * A one-time pass over stored data (a migration), recorded in `migrations` under its id when it
 * has finished: later starts skip it. A pass cut short is not recorded and runs again, so it must
 * be safe to repeat. A database restored without the record runs it again.
 */
import type { Models } from './models';

export async function runOnce(
  models: Pick<Models, 'Migration'>,
  id: string,
  run: () => Promise<void>,
): Promise<void> {
  if (await models.Migration.exists({ _id: id })) return;
  await run();
  await models.Migration.updateOne({ _id: id }, { $set: { doneAt: new Date() } }, { upsert: true });
}
