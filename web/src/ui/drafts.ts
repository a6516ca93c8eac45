/**
 * Compose drafts, one per audience, kept in localStorage so that navigation, a reload or a failed
 * post never loses what was written. Removed once the post is published.
 */
const PREFIX = 'agora.draft:';

const keyOf = (userId: string, audience: string) => `${PREFIX}${userId}:${audience}`;

export function loadDraft(userId: string | undefined, audience: string): string {
  if (!userId) return '';
  try {
    return localStorage.getItem(keyOf(userId, audience)) ?? '';
  } catch {
    return '';
  }
}

export function saveDraft(userId: string | undefined, audience: string, text: string): void {
  if (!userId) return;
  try {
    if (text.trim()) localStorage.setItem(keyOf(userId, audience), text);
    else localStorage.removeItem(keyOf(userId, audience));
  } catch {
    // A full or blocked storage only loses the draft's copy; the text stays on screen.
  }
}
