/** What a route module may say about its routes for the OpenAPI document (docs/api.md). */
import type { z } from 'zod';
import type { JsonSchema } from './convert';

export interface RouteDoc {
  summary?: string;
  /** The query the route parses with this schema (an object: one parameter per field). */
  query?: z.ZodType;
  /** The JSON body the route parses with this schema. */
  body?: z.ZodType;
  /** Another request body than JSON (uploads): its media type. */
  bodyMediaType?: string;
  /** The success body; absent: the document says it is not described. */
  response?: z.ZodType;
  /** A success body that is not JSON (downloads): its media type. */
  responseMediaType?: string;
  /** The success status (200 unless given). */
  status?: number;
}

/** Keyed by `METHOD /full/path` as GET /__routes lists it (`GET /admin/users/:id`). */
export type RouteDocs = Record<string, RouteDoc>;

export interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: Array<Record<string, unknown>>;
  requestBody?: Record<string, unknown>;
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  jsonSchemaDialect?: string;
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes?: Record<string, unknown>;
  };
  security?: Array<Record<string, string[]>>;
  tags?: Array<{ name: string }>;
}
