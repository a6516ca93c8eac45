/** KeySource backed by the settings collection (publicKey / privateKey). */
import type { SettingsStore } from '../db/repositories/settings';
import type { KeySource } from './keys';

export function settingsKeySource(settings: SettingsStore): KeySource {
  return {
    publicKey: async () => nonEmpty(await settings.get<string>('publicKey')),
    privateKey: async () => nonEmpty(await settings.get<string>('privateKey')),
    refresh: () => settings.invalidate(),
  };
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}
