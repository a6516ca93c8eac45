import { bootMain } from '@agora/common/src/boot';

void bootMain('backup', async () => (await import('./app')).createApp);
