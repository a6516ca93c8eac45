export * from './redis';
export * from './stamps';
export * from './ttl-cache';
