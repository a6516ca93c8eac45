import { bootMain } from '@agora/common/boot';

void bootMain('admin', async () => (await import('./app')).createApp);
