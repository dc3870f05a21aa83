import { Logo } from '../../components/Logo';
import { PlainTextView } from '../../features/pastes/PlainTextView';
import { cn } from '../../lib/cn';
import {
  BRAND_CLASS,
  BRAND_TITLE_CLASS,
  FRAME_CLASS,
  HEADER_CLASS,
  HEADER_ROW_CLASS,
  MAIN_CLASS,
  PUBLIC_MAIN_CLASS,
} from './frame';

/** An open plain-text paste whose text the server may paint (server/src/services/linkPreviews/linkPreviewService.ts). */
export interface PrepaintPaste {
  slug: string;
  remark: string;
  content: string;
}

export interface PagePrepaintProps {
  /** The site title of the header (the site settings). */
  siteTitle: string;
  /** On an open plain-text paste's page: the paste, painted as its page will show it. */
  paste?: PrepaintPaste;
}

function PastePrepaint({ paste }: { paste: PrepaintPaste }) {
  const path = `/paste/${paste.slug}`;
  return (
    <article className="mx-auto flex w-full max-w-4xl flex-col gap-4">
      <header className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-5">
        <div className="min-w-0">
          <h1 className="break-words text-xl font-semibold tracking-tight">{paste.remark || path}</h1>
          <p className="mt-0.5 truncate font-mono text-xs text-muted-foreground">{path}</p>
        </div>
      </header>
      <section className="rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-8">
        <PlainTextView text={paste.content} label={paste.remark || path} />
      </section>
    </article>
  );
}

/**
 * The first paint of a public page, rendered on the server (react-dom/server, server/src/http/sharePrepaint.ts) into
 * the page's `#root`, so the page shows its frame (and an open plain-text paste its text) as soon as the HTML
 * arrives, before any script. The app's first render replaces it whole (createRoot clears the container): nothing
 * here is hydrated, so it needs no texts, session or settings of the client beyond the title, and nothing in it is
 * interactive but the home link. It uses the layout's own frame classes (frame.ts), so the app draws over it in place.
 */
export function PagePrepaint({ siteTitle, paste }: PagePrepaintProps) {
  return (
    <div className={FRAME_CLASS} data-prepaint={paste ? 'paste' : 'frame'}>
      <header className={HEADER_CLASS}>
        <div className={HEADER_ROW_CLASS}>
          <a href="/" className={BRAND_CLASS}>
            <Logo />
            <span className={BRAND_TITLE_CLASS}>{siteTitle}</span>
          </a>
        </div>
      </header>
      <main className={cn(MAIN_CLASS, PUBLIC_MAIN_CLASS)}>{paste && <PastePrepaint paste={paste} />}</main>
    </div>
  );
}
