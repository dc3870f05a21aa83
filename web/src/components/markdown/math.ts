/** KaTeX for `$…$` and `$$…$$`, loaded only when a text contains a dollar sign. */
import 'katex/dist/katex.min.css';
import markedKatex from 'marked-katex-extension';

export const mathExtension = markedKatex({
  throwOnError: false,
  // No \href, \url, \htmlClass, \includegraphics …: authors cannot smuggle links or markup in.
  trust: false,
  strict: 'ignore',
  output: 'htmlAndMathml',
  maxSize: 50,
  maxExpand: 1000,
});
