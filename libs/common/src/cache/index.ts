export * from './redis';
export * from './stamps';
export * from './ttl-cache';
export * from './withdraw-account';
export * from './suspended';
