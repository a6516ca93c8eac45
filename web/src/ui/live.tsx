/**
 * What the live stream changes on screen (ADR 0020): the badge, the tab title and the open
 * notifications list on a notification; the open thread on a reply; new posts of a circle as a
 * "N new posts" banner that the timeline shows on demand. Every hint is followed by the ordinary
 * read routes, never shown from the stream itself.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { onLive, startLive } from '../api/live';

/** Mounted once for a signed-in person (in the layout). */
export function LiveUpdates() {
  const qc = useQueryClient();
  useEffect(() => {
    startLive();
    return onLive((e) => {
      // `ready` (a new or renewed stream): catch up on what may have changed while it was down.
      if (e.event === 'notification' || e.event === 'ready')
        void qc.invalidateQueries({ queryKey: ['notifications'] });
      else if (e.event === 'reply') void qc.invalidateQueries({ queryKey: ['post', e.postId] });
    });
  }, [qc]);
  return null;
}

/** Ids of posts announced for `circleId` since the timeline was last refreshed. */
export function useLivePosts(circleId: string): { fresh: string[]; clear: () => void } {
  const [fresh, setFresh] = useState<string[]>([]);
  useEffect(() => {
    setFresh([]);
    return onLive((e) => {
      if (e.event === 'post' && e.circleId === circleId)
        setFresh((ids) => (ids.includes(e.postId) ? ids : [...ids, e.postId]));
    });
  }, [circleId]);
  return { fresh, clear: () => setFresh([]) };
}
