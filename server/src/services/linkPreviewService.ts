import { SLUG_MAX } from '@clipnest/contract';
import { isoNow, type Clock } from '../lib/clock.js';
import type { FileRepository } from '../repositories/fileRepository.js';
import type { PasteRepository } from '../repositories/pasteRepository.js';
import { isLookupFileSlug } from './fileShareRules.js';
import { LINK_PREVIEW_TEXTS, fileTexts, pasteTexts } from './linkPreviewText.js';
import type { SettingsService } from './settingsService.js';

/** Characters of a paste's text read for its preview: enough for a title and a 160-character description. */
const EXCERPT_CHARS = 2000;

export interface LinkPreview {
  siteName: string;
  /** What the card shows of the share; absent when it is missing, expired or used up (the site name only). */
  share?: { kind: 'paste' | 'file'; slug: string; title: string; description: string };
}

/**
 * Link previews of shared paste and file pages (Open Graph / Twitter meta, issue 36.5): one read by the slug
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
    const [siteName, row] = await Promise.all([
      this.siteName(),
      // The same slugs PasteService looks up.
      slug.length <= SLUG_MAX ? this.deps.pastes.findPreviewBySlug(slug, EXCERPT_CHARS) : undefined,
    ]);
    if (!row || this.gone(row)) return { siteName };
    const readable = row.password_hash === null && row.encryption === null && row.max_views === 0;
    const texts = readable
      ? pasteTexts(row, row.excerpt)
      : { title: LINK_PREVIEW_TEXTS.pasteTitle, description: LINK_PREVIEW_TEXTS.protectedDescription };
    return { siteName, share: { kind: 'paste', slug: row.slug, ...texts } };
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
