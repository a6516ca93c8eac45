export { createApp } from './app';
export { createSocialContext, type SocialContext } from './context';
