import { FileInfo, FileType } from 'basic-ftp';
import { describe, expect, it } from 'vitest';
import { acceptableName, entryOfInfo, formatFtpTime, parseFtpTime, parseMlst } from './listing.js';

function info(name: string, type: FileType, size = 0): FileInfo {
  const i = new FileInfo(name);
  i.type = type;
  i.size = size;
  return i;
}

describe('ftp listings', () => {
  it('leave out names that would lead out of the folder listed, and the driver temp files', () => {
    for (const bad of [
      '.',
      '..',
      '/etc/passwd',
      '../up',
      'a/b',
      'a\\b',
      'x\u0000',
      '.clipnest-upload-0123',
      'é'.repeat(128),
    ]) {
      expect(acceptableName(bad), bad).toBe(false);
    }
    for (const good of ['a b', '#%+', '报告.txt', '.hidden', 'é'.repeat(127)])
      expect(acceptableName(good), good).toBe(true);
    expect(entryOfInfo('d', info('/abs', FileType.File))).toBeUndefined();
    expect(entryOfInfo('d', info('link', FileType.SymbolicLink))).toBeUndefined();
    expect(entryOfInfo('d', info('f', FileType.File, 5))).toMatchObject({ path: 'd/f', isDir: false, size: 5 });
    expect(entryOfInfo('', info('sub', FileType.Directory, 4096))).toMatchObject({ path: 'sub', isDir: true, size: 0 });
  });

  it('read and write FTP times (UTC)', () => {
    expect(parseFtpTime('20240102030405')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(parseFtpTime('20240102030405.5')?.toISOString()).toBe('2024-01-02T03:04:05.500Z');
    expect(parseFtpTime('junk')).toBeUndefined();
    expect(formatFtpTime(new Date('2024-01-02T03:04:05Z'))).toBe('20240102030405');
  });

  it('reads the facts of an MLST reply', () => {
    const reply = '250-Listing /a b.txt\r\n type=file;size=12;modify=20240102030405; /a b.txt\r\n250 End';
    expect(parseMlst(reply)).toMatchObject({ type: 'file', size: 12 });
    expect(parseMlst(' type=dir;modify=20240102030405; /x')?.type).toBe('dir');
  });
});
