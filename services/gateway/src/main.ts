import { bootMain } from '@agora/common/src/boot';

void bootMain('gateway', async () => (await import('./app')).createApp);
