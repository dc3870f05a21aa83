/**
 * Defaults of the public site settings. Kept free of zod (like permissions.ts and paths.ts) so the
 * web shell reads them through `@clipnest/contract/site-defaults` without loading every schema.
 */
export const SITE_DEFAULTS: {
  site_title: string;
  site_favicon_url: string;
  site_footer_markdown: string;
  site_custom_head: string;
  site_custom_body: string;
  site_announcement_enabled: boolean;
  site_announcement_content: string;
} = {
  site_title: 'Clipnest',
  site_favicon_url: '',
  site_footer_markdown: '© 2026 Clipnest. All rights reserved.',
  site_custom_head: '',
  site_custom_body: '',
  site_announcement_enabled: false,
  site_announcement_content: '',
};
