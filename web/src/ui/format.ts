/** Small display helpers. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function handle(id: string | null | undefined): string {
  return id ?? '';
}

/** The audience of an object in words. */
export function audienceLabel(to: string | undefined, domain: string | undefined): string {
  if (!to) return '';
  if (to === '@public') return 'Public';
  if (to === '@server' || (domain && to === `@${domain}`)) return 'This server';
  if (to.startsWith('circle:')) return 'Circle';
  if (to.startsWith('group:')) return 'Group';
  if (to.startsWith('@')) return 'Only me';
  // Another server's audience (a URL): words, never the raw address.
  return 'Selected people';
}

export function bytes(n: number | undefined): string {
  if (n === undefined) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(u ? 1 : 0)} ${units[u]}`;
}

/** "1 member", "3 members". */
export function memberCount(n: number | null | undefined): string {
  const count = n ?? 0;
  return `${count} ${count === 1 ? 'member' : 'members'}`;
}
