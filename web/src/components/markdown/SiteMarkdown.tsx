import { lazy, Suspense } from 'react';
import { plainParagraph } from './plainParagraph';

// The shell's short site texts (footer, announcement) must not pull the Markdown view into every page.
const MarkdownView = lazy(() => import('./MarkdownView').then((m) => ({ default: m.MarkdownView })));

/**
 * Footer and announcement Markdown: a plain line (the default footer) is shown as it is, anything else through the
 * one Markdown view and its strict sanitiser, loaded on demand.
 */
export function SiteMarkdown({ source, className }: { source: string; className?: string }) {
  const plain = plainParagraph(source);
  if (plain !== null) {
    // plainParagraph only passes text without `<`, `>` or `&`: nothing in it can become markup.
    return <div className={className} dangerouslySetInnerHTML={{ __html: plain }} />;
  }
  return (
    <Suspense fallback={null}>
      <MarkdownView variant="compact" source={source} className={className} />
    </Suspense>
  );
}
