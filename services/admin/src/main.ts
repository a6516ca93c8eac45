import { bootMain } from '@agora/common/src/boot';

void bootMain('admin', async () => (await import('./app')).createApp);
