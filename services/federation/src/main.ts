import { loadConfig, runMain } from '@agora/common';
import { createApp } from './app';

void runMain(() => createApp(loadConfig()));
