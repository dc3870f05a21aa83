import { PlainTextView } from '../pastes/PlainTextView';

/** What the server may paint of an open plain-text paste (server/src/http/sharePrepaint.ts). */
export interface PrepaintPaste {
  slug: string;
  remark: string;
  content: string;
}

/**
 * The first paint of an open plain-text paste, rendered on the server (react-dom/server) into the page's `#root`, so
 * its text shows as soon as the HTML arrives, before any script. The app's first render replaces it whole
 * (createRoot clears the container): nothing here is hydrated, so it needs no texts, session or settings of the
 * client, and nothing in it is interactive. It keeps the page's frame (the header's height, the main padding, the
 * paste's card) so the text shows about where the page will put it.
 */
export function PastePrepaint({ paste }: { paste: PrepaintPaste }) {
  const path = `/paste/${paste.slug}`;
  return (
    <div className="flex min-h-dvh flex-col" data-prepaint="paste">
      <div className="h-14 border-b border-border" aria-hidden="true" />
      <main className="flex min-h-dvh flex-1 flex-col px-4 py-8 sm:px-6 sm:py-12">
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
      </main>
    </div>
  );
}
