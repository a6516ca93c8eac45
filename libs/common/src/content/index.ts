export { hashtagsOf, plainText, renderMarkdown, renderRuleHtml, sanitize } from './markdown';
export { slugify } from './slug';
export { MARKDOWN_CORPUS } from './markdown-corpus';
export {
  markdownSource,
  tagList,
  placeInput,
  placeOf,
  rendered,
  sourceOf,
  summaryOf,
  given,
  type Addressing,
  type MarkdownInput,
  type Origin,
  type PlaceInput,
} from './fields';
export {
  POST_TYPES,
  postInput,
  postPatchInput,
  newPost,
  postChanges,
  type PostType,
  type PostInput,
  type PostPatch,
  type PostSchemaOptions,
  type CurrentPost,
} from './post';
export {
  PAGE_TYPES,
  pageInput,
  pagePatchInput,
  newPage,
  pageChanges,
  pageUrl,
  wantedSlug,
  type PageInput,
  type PagePatch,
} from './page';
export {
  replyInput,
  replyPatchInput,
  newReply,
  replyChanges,
  replyText,
  type ReplyInput,
  type ReplyPatch,
} from './reply';
export {
  CONTENT_WARNING_MAX,
  DESCRIPTION_MAX,
  sensitivityShape,
  newSensitivity,
  sensitivityChanges,
  sensitivityFrom,
  mediaFrom,
  attachmentOf,
  wireSensitivity,
  type MediaItem,
  type SensitivityInput,
} from './sensitivity';
export { newShare, shareContent, type SharedOriginal } from './share';
