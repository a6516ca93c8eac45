import { bootMain } from '@agora/common/boot';

void bootMain('federation', async () => (await import('./app')).createApp);
