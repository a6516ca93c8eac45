import { bootMain } from '@agora/common/src/boot';

void bootMain('notifications', async () => (await import('./app')).createApp);
