import { describe, expect, it } from 'vitest';
import i18n, { i18nReady, loadTextAreas, withTextAreas } from './i18n';

describe('text areas', () => {
  it('a second caller waits for the load already under way (a lazy screen after its preload)', async () => {
    await i18nReady;
    await i18n.changeLanguage('en');
    expect(i18n.t('paste.home.title')).toBe('paste.home.title');
    const preload = loadTextAreas(['paste']);
    await loadTextAreas(['paste']);
    expect(i18n.t('paste.home.title')).toBe('Share text');
    await preload;
  });

  it('a language switched to later brings the areas wanted so far', async () => {
    await loadTextAreas(['paste']);
    await i18n.changeLanguage('zh-CN');
    expect(i18n.t('paste.home.title')).not.toBe('paste.home.title');
    await i18n.changeLanguage('en');
  });

  it('a lazily loaded part (a preview) arrives with its texts, which the core file no longer carries', async () => {
    await i18n.changeLanguage('en');
    expect(i18n.t('preview.loading')).toBe('preview.loading');
    const part = await withTextAreas(['preview'], () => Promise.resolve({ Part: 'part' }));
    expect(part.Part).toBe('part');
    expect(i18n.t('preview.loading')).not.toBe('preview.loading');
  });
});
