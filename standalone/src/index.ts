export { startStandalone, type Standalone, type StandaloneOptions } from './standalone';
