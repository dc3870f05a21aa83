// The three remote storage servers of the storage bench on 127.0.0.1: Apache mod_dav, OpenSSH sshd and vsftpd,
// started by the very modules the server's tests use (server/test/support/{apacheDav,sshd,vsftpd}.ts, loaded
// through tsx), plus what only the bench needs: a key file for the `sftp` client and `own()` for files seeded on
// disk behind a server that runs as another user.
// Needs: apt-get install -y apache2 openssh-server openssh-client vsftpd curl; vsftpd must start as root.
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const support = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/test/support');
const load = (name) => tsImport(path.join(support, `${name}.ts`), import.meta.url);

/** Apache 2.4 mod_dav at `url` (ends in '/'), Basic auth, serving `root`. */
export async function startApache() {
  const { startApacheDav } = await load('apacheDav');
  const dav = await startApacheDav({ password: 'dav-bench-pass' });
  // Apache runs as the user that started it here: files seeded on disk are already its own.
  return { ...dav, own: () => undefined };
}

/** sshd with a generated client key (`keyFile` for the `sftp` client, `privateKey` for the storage config). */
export async function startSshd() {
  const { startSshd: start } = await load('sshd');
  const sshd = await start();
  const keyFile = path.join(path.dirname(sshd.root), 'bench_client_key');
  writeFileSync(keyFile, sshd.privateKey, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  return { ...sshd, keyFile };
}

/** vsftpd with anonymous writes below /pub (the folder `root` on disk); `own()` hands seeded files to its user. */
export async function startVsftpd() {
  const { startVsftpd: start } = await load('vsftpd');
  const ftp = await start();
  const owner = ['u', 'g'].map((flag) => execFileSync('id', [`-${flag}`, 'ftp'], { encoding: 'utf8' }).trim());
  return { ...ftp, own: (p) => execFileSync('chown', ['-R', owner.join(':'), p]) };
}
