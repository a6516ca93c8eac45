import { loadConfig } from '@agora/common';
import { createApp } from './app';

const app = createApp(loadConfig());
const stop = () => void app[Symbol.asyncDispose]();
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
void app.start();
