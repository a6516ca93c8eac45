export { serviceDocument, mergeDocuments, openApiPath, NOT_DESCRIBED } from './document';
export { toOpenApiSchema, type JsonSchema } from './convert';
export type { OpenApiDocument, Operation, RouteDoc, RouteDocs } from './types';
export { collectionOf, timelineOf } from './collections';
export * as wire from './wire';
export * as wireAdmin from './wire-admin';
export { wireRegistry } from './wire';
