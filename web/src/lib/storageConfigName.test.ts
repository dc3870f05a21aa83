import { BUILTIN_LOCAL_CONFIG_NAME } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { en, zhCN } from '../locales/resources';
import { storageConfigName } from './storageConfigName';
import type { TFunction } from './translate';

const tIn =
  (messages: { files: { storage: { builtinName: string } } }): TFunction =>
  (key) =>
    key === 'files.storage.builtinName' ? messages.files.storage.builtinName : key;

describe('storageConfigName (issue 35 point 12)', () => {
  it('words the built-in config in the UI language while it keeps the server default name', () => {
    const builtin = { name: BUILTIN_LOCAL_CONFIG_NAME, is_builtin: true };
    expect(storageConfigName(tIn(zhCN), builtin)).toBe('本地存储');
    expect(storageConfigName(tIn(en), builtin)).toBe('Local storage');
  });
  it("shows the admin's own names as they are", () => {
    expect(storageConfigName(tIn(zhCN), { name: 'Disk A', is_builtin: true })).toBe('Disk A');
    expect(storageConfigName(tIn(zhCN), { name: BUILTIN_LOCAL_CONFIG_NAME, is_builtin: false })).toBe('Local storage');
  });
});
