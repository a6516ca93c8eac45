/**
 * AMQP topic matching for the in-process adapter: words split on '.', '*' is exactly one word,
 * '#' is zero or more words — the same rules RabbitMQ applies to binding keys.
 */
export function topicMatches(pattern: string, routingKey: string): boolean {
  return matchWords(pattern.split('.'), 0, routingKey.split('.'), 0);
}

function matchWords(p: string[], pi: number, k: string[], ki: number): boolean {
  if (pi === p.length) return ki === k.length;
  const word = p[pi];
  if (word === '#') {
    // '#' absorbs 0..n words; try each split point.
    for (let skip = ki; skip <= k.length; skip++) if (matchWords(p, pi + 1, k, skip)) return true;
    return false;
  }
  if (ki === k.length) return false;
  return (word === '*' || word === k[ki]) && matchWords(p, pi + 1, k, ki + 1);
}
