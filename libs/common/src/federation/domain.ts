/**
 * The domain an id belongs to, which is what federation trust is decided on: a signer speaks only
 * for ids of its own domain. Ids come as URLs (`https://peer.test/users/alice`) or in this
 * system's own forms (`@alice@peer.test`, `@peer.test`, `post:<hex>@peer.test`). A domain keeps
 * its port, as DOMAIN may (local multi-instance setups), and is lower-cased.
 */
export function domainOf(id: string): string | undefined {
  if (/^https?:\/\//i.test(id)) {
    try {
      return new URL(id).host.toLowerCase() || undefined;
    } catch {
      return undefined;
    }
  }
  const at = id.lastIndexOf('@');
  if (at < 0) return undefined;
  const domain = id.slice(at + 1).toLowerCase();
  return /^[a-z0-9.-]+(:\d+)?$/.test(domain) && !domain.startsWith('.') ? domain : undefined;
}
