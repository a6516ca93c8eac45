import { bootMain } from '@agora/common/src/boot';

void bootMain('federation', async () => (await import('./app')).createApp);
