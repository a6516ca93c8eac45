export {
  ANONYMOUS,
  buildViewer,
  canSee,
  capabilityAllows,
  readableAudiences,
  tierOf,
  visibleFilter,
  type Addressed,
  type Viewer,
} from './viewer';
export { canonicalTo } from './canonical';
