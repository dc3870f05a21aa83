import { useCallback, useSyncExternalStore } from 'react';
import i18n, { type I18n } from './i18n';
import type { TFunction } from './translate';

let version = 0;
i18n.on(() => (version += 1));
const subscribe = (onChange: () => void) => i18n.on(onChange);
const snapshot = () => version;

/**
 * The texts in a component: re-renders it when the language switches, and `t` changes identity
 * then, so memoised values that use it recompute.
 */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function per text version is the point
  const t = useCallback<TFunction>((key, options) => i18n.t(key, options), [current]);
  return { t, i18n };
}
