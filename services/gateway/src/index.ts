export { createApp, buildGateway, resolveTargets, type GatewayApp, type GatewayOptions } from './app';
export type { LocalService } from './in-process';
export { APP_CSP, SPA_SEGMENTS } from './browser';
