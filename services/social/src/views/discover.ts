/**
 * The public Discover feed (spec 4.5 curation, behaviour-notes §3.14): the active sections in
 * order, each with its recommendations whose live target this viewer may read right now. The
 * stored `visibility` is never trusted: a target that turned private or was deleted disappears
 * on the next request. Only public- and server-tier targets are shown (never circle- or
 * group-addressed ones, even to their members: Discover is a shop window). Empty sections are
 * omitted. Each read touches O(sections + entries) documents, each by an equality filter.
 */
import type { SocialContext } from '../context';
import { liveTarget, type CurationTarget, type RefType } from '@agora/common/db';
import { canSee, type Viewer } from '@agora/common/audience';
import { AS_CONTEXT } from '@agora/common/http';
import { hiddenAuthors } from '../access/suspended';

type Row = Record<string, unknown>;

function tierVisible(to: unknown, viewer: Viewer, domain: string): boolean {
  if (to === '@public') return true;
  if (to === `@${domain}` || to === '@server') return !!viewer.id && viewer.local;
  return false;
}

function card(refType: RefType, t: CurationTarget, rec: Row): Row {
  const base = { id: t.id, refType, to: t.to, note: rec.note ?? '', recommendation: rec.id };
  const actor = (t.actor ?? {}) as Row;
  switch (refType) {
    case 'Post':
      return {
        ...base,
        type: t.type,
        title: t.title ?? null,
        summary: t.summary ?? null,
        preview: t.summary ?? null,
        featuredImage: t.image ?? null,
        actor: { id: t.actorId, name: actor.name ?? null, icon: actor.icon ?? null },
        url: t.url ?? null,
      };
    case 'Circle':
      return {
        ...base,
        name: t.name,
        summary: t.summary ?? null,
        icon: t.icon ?? null,
        memberCount: t.memberCount ?? 0,
        actorId: t.actorId,
        url: t.url ?? null,
      };
    case 'Group':
      return {
        ...base,
        name: t.name,
        description: t.description ?? null,
        icon: t.icon ?? null,
        image: t.image ?? null,
        memberCount: t.memberCount ?? 0,
        rsvpPolicy: t.rsvpPolicy,
        url: t.url ?? null,
      };
    case 'Bookmark':
      return {
        ...base,
        title: t.title ?? null,
        summary: t.summary ?? null,
        image: t.image ?? null,
        href: t.href ?? null,
      };
    case 'Page':
      return {
        ...base,
        title: t.title,
        summary: t.summary ?? null,
        featuredImage: t.image ?? null,
        url: t.url ?? null,
      };
  }
}

export async function discover(ctx: SocialContext, viewer: Viewer) {
  const domain = ctx.config.DOMAIN;
  const { sections: shelvesStore, recommendations, settings } = ctx.stores;
  const sections = (await shelvesStore.active()).filter((s) => tierVisible(s.to, viewer, domain));
  const shelves: Row[] = [];
  // What a suspended account wrote is off the shelves while it is (ADR 0028).
  const hidden = await hiddenAuthors(ctx);
  for (const s of sections) {
    const items: Row[] = [];
    for (const rec of await recommendations.shelf(String(s.id))) {
      const refType = rec.refType;
      const target = await liveTarget(ctx.stores, refType, String(rec.ref));
      if (!target || !tierVisible(target.to, viewer, domain) || !canSee(target, viewer, domain)) continue;
      if (refType !== 'Group' && typeof target.actorId === 'string' && hidden.has(target.actorId)) continue;
      items.push(card(refType, target, rec));
    }
    if (items.length)
      shelves.push({ id: s.id, name: s.name, slug: s.slug, summary: s.summary, order: s.order, items });
  }
  return {
    '@context': AS_CONTEXT,
    type: 'OrderedCollection',
    id: `${ctx.config.publicUrl}/recommendations`,
    totalItems: shelves.length,
    background: (await settings.get<string>('discoverBackground')) || null,
    orderedItems: shelves,
    // The reference web app reads the shelves under `sections`.
    sections: shelves,
  };
}
