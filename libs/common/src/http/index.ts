export { handler, needsAuth, type HandlerArgs, type HandlerOptions } from './handler';
export type { AuthUser, RequestAuth } from './context';
export { isJsonType, rawBodyOf, routeTreeBodyParsers } from './body';
export {
  parsePaging,
  orderedCollection,
  collectionBase,
  collectionFor,
  searchOf,
  setAll,
  AS_CONTEXT,
  type Paging,
} from './collection';
export {
  buildRouteTree,
  discoverRouteDirs,
  mountPathFor,
  listRoutes,
  dedupeSort,
  Router,
  type RouteEntry,
  type MountedRouter,
} from './route-tree';
export { authenticate, loadAuthUser, roleChecker, type RoleChecker } from './authenticate';
export { errorMiddleware, notFoundJson } from './errors-mw';
export { requestId } from './request-id';
export { listen, type RunningServer } from './server';
export { healthHandler, type Probe } from './health';
export { createServiceHttpApp, type ServiceAppOptions } from './service-app';
export { canonicalPath, splitUrl } from './canonical-path';
