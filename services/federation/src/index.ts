export { createApp } from './app';
export { createFederationContext, type FederationContext } from './context';
