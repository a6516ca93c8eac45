export { createApp, buildGateway, resolveTargets, type GatewayApp, type GatewayOptions } from './app';
