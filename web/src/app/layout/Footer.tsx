import { useTranslation } from 'react-i18next';
import { useSafeMarkdown } from '../../lib/useSafeMarkdown';
import { useSiteConfig } from '../../lib/siteConfig';

/** The site's Markdown footer, sanitised with DOMPurify (spec §2: not shown on admin pages). */
export function Footer() {
  const { t } = useTranslation();
  const { site_footer_markdown: markdown } = useSiteConfig();
  const html = useSafeMarkdown(markdown);
  if (!html) return null;
  return (
    <footer aria-label={t('footer.label')} className="border-t border-border">
      <div
        className="prose-quiet mx-auto max-w-6xl px-4 py-6 text-center text-muted-foreground sm:px-5"
        // Sanitised above: DOMPurify removes scripts, handlers and javascript: links.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </footer>
  );
}
