import { bootMain } from '@agora/common/boot';

void bootMain('gateway', async () => (await import('./app')).createApp);
