import { beforeAll, describe, expect, it } from 'vitest';
import i18n, { loadTextAreas } from '../../lib/i18n';
import { moveTasks } from './moveTasks';
import { taskTitle } from './taskTitle';

describe('taskTitle', () => {
  beforeAll(() => loadTextAreas(['fs']));
  const one = {
    type: 'copy' as const,
    total_files: 12,
    subject: { source: '/local/Archive', target: '/cloud/Archive', count: 1 },
  };
  const many = {
    type: 'copy' as const,
    total_files: 40,
    subject: { source: '/local/a.txt', target: '/cloud/backup/a.txt', count: 3 },
  };
  const old = { type: 'copy' as const, total_files: 1 };

  it('builds the title from the structured fields, in English and Chinese', async () => {
    await i18n.changeLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(taskTitle(t, one)).toBe('Copy Archive to /cloud');
    expect(taskTitle(t, many)).toBe('Copy 3 items to /cloud/backup');
    const renamed = { ...one, subject: { ...one.subject, target: '/cloud/Archive copy' } };
    expect(taskTitle(t, renamed)).toBe('Copy Archive to /cloud/Archive copy');
    expect(taskTitle(t, old)).toBe('Copy: 1 file');
    expect(taskTitle(t, { type: 'delete', total_files: 5 })).toBe('Delete: 5 files');
    await i18n.changeLanguage('zh-CN');
    const zh = i18n.t.bind(i18n);
    expect(taskTitle(zh, one)).toBe('复制 Archive 到 /cloud');
    expect(taskTitle(zh, many)).toBe('复制 3 项到 /cloud/backup');
    expect(taskTitle(zh, { type: 'delete', total_files: 5 })).toBe('删除：5 个文件');
    await i18n.changeLanguage('en');
  });

  it('the copy half of a move across mounts is titled Move', async () => {
    await i18n.changeLanguage('en');
    const t = i18n.t.bind(i18n);
    moveTasks.mark('task-move');
    expect(taskTitle(t, { ...one, id: 'task-move' })).toBe('Move Archive to /cloud');
    expect(taskTitle(t, { ...many, id: 'task-move' })).toBe('Move 3 items to /cloud/backup');
    expect(taskTitle(t, { ...one, id: 'task-copy' })).toBe('Copy Archive to /cloud');
    await i18n.changeLanguage('zh-CN');
    expect(taskTitle(i18n.t.bind(i18n), { ...one, id: 'task-move' })).toBe('移动 Archive 到 /cloud');
    await i18n.changeLanguage('en');
  });
});
