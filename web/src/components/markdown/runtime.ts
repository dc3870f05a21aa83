/** The Markdown runtime, one lazily loaded chunk: renderer, sanitiser and page enhancements. */
export { hasMermaid, mightHaveMath, renderMarkdown } from './render';
export { enhanceMarkdown, type EnhanceLabels } from './enhance';
