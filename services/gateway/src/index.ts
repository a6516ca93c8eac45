export { createApp, buildGateway, resolveTargets, type GatewayApp, type GatewayOptions } from './app';
export { APP_CSP, SPA_SEGMENTS } from './browser';
