import { bootMain } from '@agora/common/src/boot';

void bootMain('social', async () => (await import('./app')).createApp);
