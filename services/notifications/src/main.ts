import { bootMain } from '@agora/common/boot';

void bootMain('notifications', async () => (await import('./app')).createApp);
