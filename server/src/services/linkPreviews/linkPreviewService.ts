import { SLUG_MAX } from '@clipnest/contract';
import { isoNow, type Clock } from '../../lib/clock.js';
import type { FileRepository } from '../../repositories/fileRepository.js';
import type { PasteRepository } from '../../repositories/pasteRepository.js';
import { isLookupFileSlug } from '../shares/fileShareRules.js';
import { LINK_PREVIEW_TEXTS, fileTexts, pasteTexts } from './linkPreviewText.js';
import type { SettingsService } from '../admin/settingsService.js';

/** Characters of a paste's text read for its preview: enough for a title and a 160-character description. */
const EXCERPT_CHARS = 2000;

/**
 * Longest text (UTF-16 code units) of an open paste its page is painted with on the server (http/sharePrepaint.ts):
 * a longer one renders on the client only, so a page never carries a huge text twice (in the HTML and as data).
 */
export const PREPAINT_MAX_CHARS = 64 * 1024;

/** An open plain-text paste whose text its page may show before any script (http/sharePrepaint.ts). */
export interface OpenPaste {
  slug: string;
  remark: string;
  content: string;
}

export interface LinkPreview {
  siteName: string;
  /** What the card shows of the share; absent when it is missing, expired or used up (the site name only). */
  share?: { kind: 'paste' | 'file'; slug: string; title: string; description: string };
}

/**
 * Link previews of shared paste and file pages (Open Graph / Twitter meta): one read by the slug
 * index, never a counted view or a decryption. Only a share anyone may open without a secret and without using up
 * a view (no password, not end-to-end encrypted, no view limit) shows anything of its own; the others get the
 * generic texts of LINK_PREVIEW_TEXTS.
 */
export class LinkPreviewService {
  constructor(
    private readonly deps: {
      pastes: PasteRepository;
      files: FileRepository;
      settings: SettingsService;
      clock: Clock;
    },
  ) {}

  private async siteName(): Promise<string> {
    return (await this.deps.settings.get('site_title')).trim() || LINK_PREVIEW_TEXTS.siteName;
  }

  private gone(row: { expires_at: string | null; max_views: number; views: number }): boolean {
    const now = isoNow(this.deps.clock);
    return (row.expires_at !== null && row.expires_at <= now) || (row.max_views > 0 && row.views >= row.max_views);
  }

  async paste(slug: string): Promise<LinkPreview> {
    return (await this.pastePage(slug, EXCERPT_CHARS)).preview;
  }

  /**
   * A paste page's preview, and the paste itself when its page may be painted with its text on the server: open
   * (no password, not end-to-end encrypted, no view limit, so no burn after reading either), live, plain text, at
   * most `prepaintChars` long. One read by the slug index, no view counted.
   */
  async pastePage(
    slug: string,
    prepaintChars: number = PREPAINT_MAX_CHARS,
  ): Promise<{ preview: LinkPreview; open?: OpenPaste }> {
    const [siteName, row] = await Promise.all([
      this.siteName(),
      // The same slugs PasteService looks up. The excerpt is '' unless the paste is open (the SQL decides).
      slug.length <= SLUG_MAX
        ? this.deps.pastes.findPreviewBySlug(slug, Math.max(EXCERPT_CHARS, prepaintChars + 1))
        : undefined,
    ]);
    if (!row || this.gone(row)) return { preview: { siteName } };
    const readable = row.password_hash === null && row.encryption === null && row.max_views === 0;
    const texts = readable
      ? pasteTexts(row, row.excerpt.slice(0, EXCERPT_CHARS))
      : { title: LINK_PREVIEW_TEXTS.pasteTitle, description: LINK_PREVIEW_TEXTS.protectedDescription };
    const preview: LinkPreview = { siteName, share: { kind: 'paste', slug: row.slug, ...texts } };
    const paintable = readable && row.type === 'text' && row.excerpt.length <= prepaintChars;
    return paintable ? { preview, open: { slug: row.slug, remark: row.remark, content: row.excerpt } } : { preview };
  }

  async file(slug: string): Promise<LinkPreview> {
    const [siteName, row] = await Promise.all([
      this.siteName(),
      isLookupFileSlug(slug) ? this.deps.files.findPreviewBySlug(slug) : undefined,
    ]);
    if (!row || this.gone(row)) return { siteName };
    // An end-to-end encrypted file's name and type are placeholders: nothing worth showing, generic too.
    const readable = row.password_hash === null && row.encryption === null && row.max_views === 0;
    const texts = readable
      ? fileTexts(row)
      : { title: LINK_PREVIEW_TEXTS.fileTitle, description: LINK_PREVIEW_TEXTS.protectedDescription };
    return { siteName, share: { kind: 'file', slug: row.slug, ...texts } };
  }
}
