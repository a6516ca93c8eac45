/** jsonld.js (Digital Bazaar's JSON-LD processor, the one Fedify uses): it ships no type declarations. */
declare module 'jsonld' {
  export interface RemoteDocument {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
  }
  export interface CanonizeOptions {
    format: 'application/n-quads';
    documentLoader: (url: string) => Promise<RemoteDocument>;
    safe: boolean;
    canonizeOptions?: { algorithm?: string; signal?: AbortSignal; maxWorkFactor?: number };
  }
  export interface CompactOptions {
    documentLoader: (url: string) => Promise<RemoteDocument>;
    safe: boolean;
  }
  const jsonld: {
    canonize(input: unknown, options: CanonizeOptions): Promise<string>;
    compact(input: unknown, context: unknown, options: CompactOptions): Promise<Record<string, unknown>>;
  };
  export default jsonld;
}
