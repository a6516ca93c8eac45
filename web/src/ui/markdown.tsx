/**
 * The compose preview: a small markdown subset rendered to React elements (never to an HTML
 * string), so nothing the user typed reaches the DOM as markup. The server renders the stored
 * post with its own sanitiser; this preview only has to be close to it.
 */
import type { ReactNode } from 'react';

const INLINE = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|_[^_\s][^_]*_|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/;

function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  text.split(INLINE).forEach((part, i) => {
    const k = `${key}.${i}`;
    if (!part) return;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4)
      out.push(<strong key={k}>{inline(part.slice(2, -2), k)}</strong>);
    else if ((part.startsWith('*') || part.startsWith('_')) && part.length > 2 && part.endsWith(part[0]!))
      out.push(<em key={k}>{inline(part.slice(1, -1), k)}</em>);
    else if (part.startsWith('`') && part.endsWith('`') && part.length > 2)
      out.push(<code key={k}>{part.slice(1, -1)}</code>);
    else {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
      if (link && /^https?:\/\//i.test(link[2]!))
        out.push(
          <a key={k} href={link[2]} rel="noopener noreferrer nofollow" target="_blank">
            {link[1]}
          </a>,
        );
      else out.push(part);
    }
  });
  return out;
}

export function Markdown({ source }: { source: string }) {
  const blocks: ReactNode[] = [];
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const key = `b${i}`;
    if (!line.trim()) {
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.startsWith('```')) code.push(lines[i++]!);
      i++;
      blocks.push(
        <pre key={key}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + 2);
      const Tag = `h${level}` as 'h3';
      blocks.push(<Tag key={key}>{inline(heading[2]!, key)}</Tag>);
      i++;
      continue;
    }
    if (/^\s*[-*]\s+/.test(line)) {
      const items: ReactNode[] = [];
      while (i < lines.length && /^\s*[-*]\s+/.test(lines[i]!)) {
        items.push(
          <li key={`${key}.${i}`}>{inline(lines[i]!.replace(/^\s*[-*]\s+/, ''), `${key}.${i}`)}</li>,
        );
        i++;
      }
      blocks.push(<ul key={key}>{items}</ul>);
      continue;
    }
    if (line.startsWith('>')) {
      const quote: string[] = [];
      while (i < lines.length && lines[i]!.startsWith('>')) quote.push(lines[i++]!.replace(/^>\s?/, ''));
      blocks.push(<blockquote key={key}>{inline(quote.join(' '), key)}</blockquote>);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !/^(#{1,6}\s|```|>|\s*[-*]\s)/.test(lines[i]!))
      para.push(lines[i++]!);
    blocks.push(<p key={key}>{inline(para.join(' '), key)}</p>);
  }
  return <div className="markdown">{blocks}</div>;
}
