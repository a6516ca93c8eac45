/**
 * GET /__openapi of a domain service: its part of the OpenAPI document, built once from its
 * mounted routes and their modules' `openapi` exports. The gateway merges the parts
 * (services/gateway/src/openapi.ts). A RouteDoc for a route that is not mounted answers 500
 * with the reason (the e2e tier asks every service), it never stops the service.
 */
import type { RequestHandler } from 'express';
import { listRoutes, type MountedRouter } from '../http/route-tree';
import { serviceDocument } from './document';
import type { OpenApiDocument, RouteDocs } from './types';

export function openApiHandler(name: string, routes: MountedRouter[]): RequestHandler {
  let built: OpenApiDocument | undefined;
  return (_req, res, next) => {
    try {
      const docs = Object.assign({}, ...routes.map((r) => r.docs ?? {})) as RouteDocs;
      built ??= serviceDocument(`agora ${name}`, listRoutes(routes), docs);
      res.json(built);
    } catch (err) {
      next(err);
    }
  };
}
