import { describe, expect, it } from 'vitest';
import { numberedName, planTransfer, type Ask } from './conflicts';

describe('numberedName', () => {
  it('numbers before the extension', () => {
    expect(numberedName('a.txt', 1)).toBe('a (1).txt');
    expect(numberedName('archive.tar.gz', 2)).toBe('archive (2).tar.gz');
    expect(numberedName('.env', 1)).toBe('.env (1)');
    expect(numberedName('README', 3)).toBe('README (3)');
  });
});

describe('planTransfer', () => {
  const existing = new Set(['/d/a.txt', '/d/b.txt', '/d/a (1).txt']);
  const exists = (p: string) => Promise.resolve(existing.has(p));
  const asked: string[] = [];
  const answering =
    (...answers: Awaited<ReturnType<Ask>>[]): Ask =>
    (name) => {
      asked.push(name);
      return Promise.resolve(answers.shift()!);
    };

  it('asks about each taken name: replace, keep both (first free name), skip', async () => {
    asked.length = 0;
    const plan = await planTransfer(
      ['/s/a.txt', '/s/b.txt', '/s/c.txt'],
      '/d',
      'copy',
      answering({ choice: 'keep', forAll: false }, { choice: 'replace', forAll: false }),
      exists,
    );
    expect(asked).toEqual(['a.txt', 'b.txt']);
    expect(plan).toEqual({
      items: [
        { sourcePath: '/s/a.txt', targetPath: '/d/a (2).txt' },
        { sourcePath: '/s/b.txt', targetPath: '/d/b.txt' },
        { sourcePath: '/s/c.txt', targetPath: '/d/c.txt' },
      ],
      replaced: ['/d/b.txt'],
    });
  });

  it('"for all" answers the rest; skip drops them; closing the question cancels', async () => {
    asked.length = 0;
    const plan = await planTransfer(
      ['/s/a.txt', '/s/b.txt'],
      '/d',
      'move',
      answering({ choice: 'skip', forAll: true }),
      exists,
    );
    expect(asked).toEqual(['a.txt']);
    expect(plan).toEqual({ items: [], replaced: [] });
    expect(await planTransfer(['/s/a.txt'], '/d', 'copy', answering({ choice: null, forAll: false }), exists)).toBe(
      null,
    );
  });

  it('a copy onto itself keeps both without asking; a move onto itself is dropped', async () => {
    asked.length = 0;
    const self = ['/d/a.txt'];
    expect(await planTransfer(self, '/d', 'copy', answering(), exists)).toEqual({
      items: [{ sourcePath: '/d/a.txt', targetPath: '/d/a (2).txt' }],
      replaced: [],
    });
    expect(await planTransfer(self, '/d', 'move', answering(), exists)).toEqual({ items: [], replaced: [] });
    expect(asked).toEqual([]);
  });
});
