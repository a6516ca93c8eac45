import { bootMain } from '@agora/common/boot';

void bootMain('social', async () => (await import('./app')).createApp);
