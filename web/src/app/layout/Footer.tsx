import { useTranslation } from '../../lib/useTranslation';
import { SiteMarkdown } from '../../components/markdown/SiteMarkdown';
import { useSiteConfig } from '../../lib/siteConfig';

/** The site's Markdown footer, through the paste renderer and sanitiser (spec §2: not shown on admin pages). */
export function Footer() {
  const { t } = useTranslation();
  const { site_footer_markdown: markdown } = useSiteConfig();
  if (!markdown.trim()) return null;
  return (
    <footer aria-label={t('footer.label')} className="border-t border-border">
      <SiteMarkdown
        source={markdown}
        className="prose-quiet mx-auto max-w-6xl px-4 py-6 text-center text-muted-foreground sm:px-5"
      />
    </footer>
  );
}
