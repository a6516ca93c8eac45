import { bootMain } from '@agora/common/boot';

void bootMain('backup', async () => (await import('./app')).createApp);
