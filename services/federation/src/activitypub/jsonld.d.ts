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
  const jsonld: { canonize(input: unknown, options: CanonizeOptions): Promise<string> };
  export default jsonld;
}
