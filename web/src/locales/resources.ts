import enCore from './en.json';
import enAdminPanel from './en/adminPanel.json';
import enFiles from './en/files.json';
import enFs from './en/fs.json';
import enPaste from './en/paste.json';
import enConnect from './en/connect.json';
import enPreview from './en/preview.json';
import enKeys from './en/keys.json';
import enPermissions from './en/permissions.json';
import enRoles from './en/roles.json';
import enAdmin from './en/admin.json';
import enLogin from './en/login.json';
import enEnvSwitcher from './en/envSwitcher.json';
import zhCore from './zh-CN.json';
import zhAdminPanel from './zh-CN/adminPanel.json';
import zhFiles from './zh-CN/files.json';
import zhFs from './zh-CN/fs.json';
import zhPaste from './zh-CN/paste.json';
import zhConnect from './zh-CN/connect.json';
import zhPreview from './zh-CN/preview.json';
import zhKeys from './zh-CN/keys.json';
import zhPermissions from './zh-CN/permissions.json';
import zhRoles from './zh-CN/roles.json';
import zhAdmin from './zh-CN/admin.json';
import zhLogin from './zh-CN/login.json';
import zhEnvSwitcher from './zh-CN/envSwitcher.json';

// One namespace assembled from a core file plus one file per text area (lib/i18n.ts loads them per screen, as
// app/routes.ts declares), so features grow their texts without editing a shared file. Keys are typed from
// English; a key missing in Chinese is a type error. This complete set is for tests and types only.
export const en = {
  ...enCore,
  paste: enPaste,
  files: enFiles,
  adminPanel: enAdminPanel,
  fs: enFs,
  connect: enConnect,
  preview: enPreview,
  keys: enKeys,
  permissions: enPermissions,
  roles: enRoles,
  admin: enAdmin,
  login: enLogin,
  envSwitcher: enEnvSwitcher,
};
export type Messages = typeof en;
export const zhCN: Messages = {
  ...zhCore,
  paste: zhPaste,
  files: zhFiles,
  adminPanel: zhAdminPanel,
  fs: zhFs,
  connect: zhConnect,
  preview: zhPreview,
  keys: zhKeys,
  permissions: zhPermissions,
  roles: zhRoles,
  admin: zhAdmin,
  login: zhLogin,
  envSwitcher: zhEnvSwitcher,
};
