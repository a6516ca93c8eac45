export { configSchema, configDocs, type Config } from './schema';
export { loadConfig, parseBytes, parseDuration } from './load';
