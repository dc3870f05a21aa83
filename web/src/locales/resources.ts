import enCore from './en.json';
import enAdminPanel from './en/adminPanel.json';
import enFiles from './en/files.json';
import enFs from './en/fs.json';
import enPaste from './en/paste.json';
import zhCore from './zh-CN.json';
import zhAdminPanel from './zh-CN/adminPanel.json';
import zhFiles from './zh-CN/files.json';
import zhFs from './zh-CN/fs.json';
import zhPaste from './zh-CN/paste.json';

// One namespace assembled from a core file plus one file per text area (lib/i18n.ts loads them per screen, as
// app/routes.ts declares), so features grow their texts without editing a shared file. Keys are typed from
// English; a key missing in Chinese is a type error. This complete set is for tests and types only.
export const en = { ...enCore, paste: enPaste, files: enFiles, adminPanel: enAdminPanel, fs: enFs };
export type Messages = typeof en;
export const zhCN: Messages = { ...zhCore, paste: zhPaste, files: zhFiles, adminPanel: zhAdminPanel, fs: zhFs };
