export { MarkdownView, loadMarkdownRuntime, markdownToSafeHtml, type MarkdownViewProps } from './MarkdownView';
