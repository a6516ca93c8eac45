/**
 * RFC 9421 HTTP Message Signatures, the subset ActivityPub servers use (Fedify signs with it first
 * and falls back to draft-cavage on a 401): `rsa-v1_5-sha256` over `@method`, `@target-uri`,
 * `@authority`, headers and `content-digest` (RFC 9530, checked against the raw body). The
 * `created` parameter takes the place of `Date` (±1 hour, as for draft-cavage); a signature that
 * verified is remembered against replay as draft-cavage signatures are.
 */
import { createHash, sign } from 'node:crypto';
import { Unauthorized } from '../errors';

export interface Rfc9421Input {
  label: string;
  components: string[];
  /** The parameters as sent, after the component list (`;alg=…;keyid=…;created=…`). */
  parameters: string;
  keyId: string;
  alg: string | undefined;
  created: number;
}

const SF_TOKEN = /^\s*([a-z*][a-z0-9_.*-]*)=/;

/** Splits a structured-field dictionary on top-level commas (outside quotes and parentheses). */
function members(header: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(header.slice(start, i));
      start = i + 1;
    }
  }
  out.push(header.slice(start));
  return out.map((m) => m.trim()).filter(Boolean);
}

function params(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    out.set(name, value);
  }
  return out;
}

/** `Signature-Input`: every labelled signature with its covered components and parameters. */
export function parseSignatureInput(header: string): Rfc9421Input[] {
  const out: Rfc9421Input[] = [];
  for (const member of members(header)) {
    const label = SF_TOKEN.exec(member)?.[1];
    if (!label) continue;
    const rest = member.slice(member.indexOf('=') + 1).trim();
    const close = rest.indexOf(')');
    if (!rest.startsWith('(') || close < 0) continue;
    const inner = rest.slice(1, close).trim();
    const components = inner ? inner.split(/\s+/).map((c) => c.replace(/^"|"$/g, '')) : [];
    if (inner.split(/\s+/).some((c) => inner && !/^"[^"]+"$/.test(c))) continue;
    const parameters = rest.slice(close + 1);
    const p = params(parameters);
    const created = Number(p.get('created'));
    const keyId = p.get('keyid');
    if (!keyId || !Number.isInteger(created)) continue;
    out.push({
      label,
      components,
      parameters: parameters.replace(/^;/, ''),
      keyId,
      alg: p.get('alg'),
      created,
    });
  }
  return out;
}

/** `Signature`: the signature bytes of each label. */
export function parseSignatures(header: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const member of members(header)) {
    const m = /^([a-z*][a-z0-9_.*-]*)=:([A-Za-z0-9+/]*={0,2}):$/.exec(member);
    if (m?.[1] && m[2] !== undefined) out.set(m[1], Buffer.from(m[2], 'base64'));
  }
  return out;
}

export interface SignatureBaseRequest {
  method: string;
  /** The absolute URL the request was sent to. */
  url: string;
  headers: Record<string, string | undefined>;
}

/** The signature base (RFC 9421 §2.5) of the components named, with the parameters as sent. */
export function signatureBase(req: SignatureBaseRequest, components: string[], parameters: string): string {
  const url = new URL(req.url);
  const lines = components.map((name) => {
    const value = derived(name, req.method, url) ?? req.headers[name];
    if (value === undefined) throw new Unauthorized(`Signed component ${name} is missing`);
    return `"${name}": ${value}`;
  });
  lines.push(`"@signature-params": (${components.map((c) => `"${c}"`).join(' ')});${parameters}`);
  return lines.join('\n');
}

function derived(name: string, method: string, url: URL): string | undefined {
  switch (name) {
    case '@method':
      return method.toUpperCase();
    case '@target-uri':
      return url.href;
    case '@authority':
      return url.host;
    case '@scheme':
      return url.protocol.slice(0, -1);
    case '@request-target':
      return `${url.pathname}${url.search}`;
    case '@path':
      return url.pathname;
    case '@query':
      return url.search || '?';
    default:
      if (name.startsWith('@')) throw new Unauthorized(`Unsupported derived component ${name}`);
      return undefined;
  }
}

export function contentDigestOf(body: Buffer | string): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** RFC 9530 Content-Digest against the raw body: every sha-256/sha-512 entry must match. */
export function checkContentDigest(header: string | undefined, body: Buffer): void {
  if (header === undefined) throw new Unauthorized('Content-Digest is required with a body');
  const entries = members(header).map((m) => /^([a-z0-9-]+)=:([A-Za-z0-9+/]*={0,2}):$/.exec(m));
  const known = entries.filter(
    (m): m is RegExpExecArray => !!m && (m[1] === 'sha-256' || m[1] === 'sha-512'),
  );
  if (!known.length) throw new Unauthorized('Unsupported Content-Digest algorithm (use sha-256)');
  for (const m of known) {
    const actual = createHash(m[1] === 'sha-256' ? 'sha256' : 'sha512')
      .update(body)
      .digest('base64');
    if (actual !== m[2]) throw new Unauthorized('Content-Digest does not match the body');
  }
}

/** Headers that sign a request with RFC 9421 (`sig1`, rsa-v1_5-sha256), as Fedify does. */
export function signRfc9421(input: {
  method: string;
  url: string;
  body?: string | Buffer;
  keyId: string;
  privateKeyPem: string;
  now?: Date;
}): Record<string, string> {
  const url = new URL(input.url);
  const now = input.now ?? new Date();
  const headers: Record<string, string> = { host: url.host, date: now.toUTCString() };
  if (input.body !== undefined) headers['content-digest'] = contentDigestOf(input.body);
  const components = ['@method', '@target-uri', '@authority', 'host', 'date'];
  if (input.body !== undefined) components.push('content-digest');
  const parameters = `alg="rsa-v1_5-sha256";keyid="${input.keyId}";created=${Math.floor(now.getTime() / 1000)}`;
  const base = signatureBase({ method: input.method, url: input.url, headers }, components, parameters);
  const signature = sign('sha256', Buffer.from(base), input.privateKeyPem).toString('base64');
  return {
    date: headers.date!,
    ...(headers['content-digest'] ? { 'content-digest': headers['content-digest'] } : {}),
    'signature-input': `sig1=(${components.map((c) => `"${c}"`).join(' ')});${parameters}`,
    signature: `sig1=:${signature}:`,
  };
}
