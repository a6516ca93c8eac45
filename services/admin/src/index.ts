export { createApp } from './app';
export { createAdminContext, type AdminContext } from './context';
