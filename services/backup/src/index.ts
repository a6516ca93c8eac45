export { createApp } from './app';
export { createBackupContext, type BackupContext } from './context';
