import enCore from './en.json';
import enAdminPanel from './en/adminPanel.json';
import enFiles from './en/files.json';
import type enFs from './en/fs.json';
import enPaste from './en/paste.json';
import zhCore from './zh-CN.json';
import zhAdminPanel from './zh-CN/adminPanel.json';
import zhFiles from './zh-CN/files.json';
import zhPaste from './zh-CN/paste.json';

// One namespace assembled from a core file plus one file per feature area, so features grow their
// texts without editing a shared file. Keys are typed from English; a key missing in Chinese is a type error.
// The mount tree's texts (`fs`) are not in the shell: the explorer and mount management chunks add them
// (fsMessages.ts), so every other route loads less.
export const en = { ...enCore, paste: enPaste, files: enFiles, adminPanel: enAdminPanel };
export type Messages = typeof en & { fs: typeof enFs };
export const zhCN: Omit<Messages, 'fs'> = { ...zhCore, paste: zhPaste, files: zhFiles, adminPanel: zhAdminPanel };
