/** `npm run migrate`: an offline copy of the database between engines (docs/operations.md). */
export {
  checkSource,
  copyDatabase,
  MigrationRefused,
  type CopyOptions,
  type CopyProgress,
  type CopyReport,
} from './copy';
export { describeLocation, openLocation, parseLocation, sameLocation, type Location } from './location';
