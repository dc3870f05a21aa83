// rclone (Debian `rclone`) for the rclone storage type's tests: a config section of rclone's own `webdav`
// backend pointed at the Apache mod_dav test server, so the whole chain runs on real servers.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ApacheDav } from './apacheDav.js';

export const RCLONE_BIN = '/usr/bin/rclone';

/** Why rclone cannot run here, or undefined. In CI a missing binary is a failure, not a skip. */
export function rcloneMissing(): string | undefined {
  if (existsSync(RCLONE_BIN)) return undefined;
  const why = `${RCLONE_BIN} is not installed (Debian package rclone)`;
  if (process.env.CI === 'true') throw new Error(`${why}: CI must install it (.ci/run)`);
  return why;
}

/** An rclone.conf section reaching `apache.url` + `folder` through rclone's webdav backend. */
export function rcloneSectionFor(apache: ApacheDav, folder = '', name = 'nas'): string {
  const obscured = execFileSync(RCLONE_BIN, ['obscure', apache.password], { encoding: 'utf8' }).trim();
  return [
    `[${name}]`,
    'type = webdav',
    `url = ${apache.url}${folder}`,
    'vendor = other',
    `user = ${apache.username}`,
    `pass = ${obscured}`,
    '',
  ].join('\n');
}
