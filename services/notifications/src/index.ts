export { createApp } from './app';
export { handleEvent, startConsumer, CONSUMED_EVENTS, NOTIFICATIONS_QUEUE } from './consumer';
export { createNotificationsContext, type NotificationsContext } from './context';
