import { describe, expect, it } from 'vitest';
import { formatRcloneSection, parseRcloneSection } from './rcloneSection.js';

describe('parseRcloneSection', () => {
  it('reads what `rclone config show NAME` prints', () => {
    const text = '[my drive]\ntype = onedrive\ntoken = {"access_token":"a=b","expiry":"2030-01-01T00:00:00Z"}\n\n';
    expect(parseRcloneSection(text)).toEqual({
      ok: true,
      section: {
        name: 'my drive',
        type: 'onedrive',
        options: { token: '{"access_token":"a=b","expiry":"2030-01-01T00:00:00Z"}' },
      },
    });
  });

  it.each([
    ['', 'empty'],
    ['type = drive', 'header'],
    ['[a]\ntype = drive\n[b]\ntype = drive', 'sections'],
    ['[a]\nurl = x', 'noType'],
    ['[a]\ntype = local', 'refusedType'],
    ['[a]\ntype = alias\nremote = /etc', 'refusedType'],
    ['[a]\ntype = union', 'refusedType'],
    ['[a]\ntype = frobnicate', 'unknownType'],
    ['[a]\ntype = sftp\nkey_file = /root/.ssh/id_rsa', 'key'],
    ['[a]\ntype = webdav\nbearer_token_command = cat /etc/shadow', 'key'],
    ['[a]\ntype = drive\ntype = s3', 'twice'],
    ['[a]\ntype = drive\nno equals sign', 'line'],
    ['[ bad/name ]\ntype = drive', 'name'],
  ])('refuses %j (%s)', (text, problem) => {
    const parsed = parseRcloneSection(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? undefined : parsed.problem).toBe(problem);
  });

  it('formats a section it reads back the same', () => {
    const text = formatRcloneSection('od', 'onedrive', { client_id: 'c', region: '', token: '{"x":1}' });
    expect(text).toBe('[od]\ntype = onedrive\nclient_id = c\ntoken = {"x":1}\n');
    expect(parseRcloneSection(text)).toMatchObject({ ok: true, section: { name: 'od', options: { client_id: 'c' } } });
  });
});
