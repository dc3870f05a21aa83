import {
  parseExtensionList,
  PREVIEW_TYPE_DEFAULTS,
  type PreviewTypeKey,
  type PreviewTypeSettings,
} from '@clipnest/contract/preview-types';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';

/** The preview kinds decided by the file's name through the admin's extension lists. */
export type NamedPreviewKind = 'ebook' | 'hls' | 'subtitle';

const KEY_OF: Record<NamedPreviewKind, PreviewTypeKey> = {
  ebook: 'preview_ebook_types',
  hls: 'preview_hls_types',
  subtitle: 'preview_subtitle_types',
};

function extensionOf(name: string): string {
  const base = name.split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Which of the named kinds a file is, by the lists (`null`: none of them). */
export function namedPreviewKind(name: string, lists: PreviewTypeSettings): NamedPreviewKind | null {
  const ext = extensionOf(name);
  if (!ext) return null;
  for (const kind of ['ebook', 'hls', 'subtitle'] as const) {
    if (parseExtensionList(lists[KEY_OF[kind]]).includes(ext)) return kind;
  }
  return null;
}

/** The admin's lists (GET /api/public/preview-settings); the defaults until they arrive or when they fail. */
export function usePreviewTypes(): PreviewTypeSettings {
  const query = useQuery({
    queryKey: ['preview-types'],
    queryFn: ({ signal }) => api.get<PreviewTypeSettings>('/public/preview-settings', { auth: 'none', signal }),
    staleTime: 5 * 60 * 1000,
    retry: 1,
    meta: { silent: true },
  });
  return { ...PREVIEW_TYPE_DEFAULTS, ...query.data };
}
