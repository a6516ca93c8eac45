/**
 * A translated sentence with elements inside it: `<0>Log in</0> or <1>sign up</1>` puts the
 * words between the tags into the given elements (a link, `<kbd>`, ...), so translators can move
 * them within the sentence.
 */
import { cloneElement, Fragment, type ReactElement, type ReactNode } from 'react';

const TAG = /<(\d+)>(.*?)<\/\1>/g;

export function Rich({ text, parts }: { text: string; parts: ReactElement<{ children?: ReactNode }>[] }) {
  const out: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(TAG)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const part = parts[Number(m[1])];
    out.push(part ? cloneElement(part, { key: m.index }, m[2]) : m[2]);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return <Fragment>{out}</Fragment>;
}
