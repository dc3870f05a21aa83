import type { FsEntryView } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS } from '../fs/viewPrefs';
import {
  dialogOpen,
  explorerActions as act,
  explorerReducer,
  initialExplorerState,
  NO_SELECTION,
  type ExplorerAction,
  type ExplorerState,
} from './explorerState';

const paths = ['/m/a', '/m/b', '/m/c', '/m/d'];
const entry = { path: '/m/b', name: 'b', isDirectory: false } as FsEntryView;
const start = () => initialExplorerState(DEFAULT_PREFS);
const run = (...actions: ExplorerAction[]): ExplorerState => actions.reduce(explorerReducer, start());
const selected = (s: ExplorerState) => [...s.sel.selected].sort();

describe('explorer state', () => {
  it('starts with nothing selected, focused or open', () => {
    const s = start();
    expect(s.prefs).toBe(DEFAULT_PREFS);
    expect(s.sel).toBe(NO_SELECTION);
    expect(s.focused).toBe(-1);
    expect(s.filter).toBe('');
    expect(dialogOpen(s, null)).toBe(false);
  });

  it('sets prefs and filter', () => {
    const prefs = { ...DEFAULT_PREFS, desc: !DEFAULT_PREFS.desc };
    const s = run(act.prefs(prefs), act.filter('txt'));
    expect(s.prefs).toBe(prefs);
    expect(s.filter).toBe('txt');
  });

  it('click focuses and selects; toggle adds and removes; shift takes a range', () => {
    let s = run(act.click(paths, 1, { shift: false, toggle: false }));
    expect(s.focused).toBe(1);
    expect(selected(s)).toEqual(['/m/b']);
    s = explorerReducer(s, act.click(paths, 3, { shift: false, toggle: true }));
    expect(selected(s)).toEqual(['/m/b', '/m/d']);
    s = explorerReducer(s, act.click(paths, 3, { shift: false, toggle: true }));
    expect(selected(s)).toEqual(['/m/b']);
    // The last toggle (index 3) is the anchor of the range.
    s = explorerReducer(s, act.click(paths, 2, { shift: true, toggle: false }));
    expect(selected(s)).toEqual(['/m/c', '/m/d']);
    expect(s.focused).toBe(2);
  });

  it('focus alone keeps the selection', () => {
    const s = run(act.click(paths, 0, { shift: false, toggle: false }), act.focus(2));
    expect(s.focused).toBe(2);
    expect(selected(s)).toEqual(['/m/a']);
  });

  it('arrow steps move the focus within the list and select; shift extends', () => {
    let s = run(act.step(paths, 1, false));
    expect(s.focused).toBe(0);
    expect(selected(s)).toEqual(['/m/a']);
    s = explorerReducer(s, act.step(paths, -1, false));
    expect(s.focused).toBe(0);
    s = explorerReducer(s, act.step(paths, 1, true));
    s = explorerReducer(s, act.step(paths, 1, true));
    expect(s.focused).toBe(2);
    expect(selected(s)).toEqual(['/m/a', '/m/b', '/m/c']);
    s = explorerReducer(s, act.step(paths, 1, false));
    s = explorerReducer(s, act.step(paths, 1, false));
    expect(s.focused).toBe(3);
    expect(selected(s)).toEqual(['/m/d']);
  });

  it('an arrow in an empty folder changes nothing but the focus', () => {
    const s = run(act.step([], 1, false));
    expect(s.focused).toBe(-1);
    expect(s.sel).toBe(NO_SELECTION);
  });

  it('select all, select, clear', () => {
    let s = run(act.selectAll(paths));
    expect(selected(s)).toEqual(paths);
    expect(s.sel.anchor).toBe(0);
    s = explorerReducer(s, act.select({ selected: new Set(['/m/c']), anchor: 2 }));
    expect(selected(s)).toEqual(['/m/c']);
    s = explorerReducer(s, act.clearSelection());
    expect(s.sel).toBe(NO_SELECTION);
  });

  it('the menu of an entry outside the selection selects it; inside, the selection stays', () => {
    let s = run(act.selectAll(paths.slice(0, 2)), act.openMenu({ x: 5, y: 6, index: 2 }, '/m/c'));
    expect(selected(s)).toEqual(['/m/c']);
    expect(s.sel.anchor).toBe(2);
    expect(s.focused).toBe(2);
    expect(s.menu).toEqual({ x: 5, y: 6, index: 2 });
    expect(dialogOpen(s, null)).toBe(true);
    s = run(act.selectAll(paths.slice(0, 2)), act.openMenu({ x: 1, y: 1, index: 1 }, '/m/b'));
    expect(selected(s)).toEqual(['/m/a', '/m/b']);
    s = explorerReducer(s, act.closeMenu());
    expect(s.menu).toBeNull();
    expect(selected(s)).toEqual(['/m/a', '/m/b']);
  });

  it('a menu without an entry only focuses', () => {
    const s = run(act.openMenu({ x: 0, y: 0, index: 9 }, undefined));
    expect(s.sel).toBe(NO_SELECTION);
    expect(s.focused).toBe(9);
    expect(s.menu?.index).toBe(9);
  });

  it('dialogs open and close; each counts as open', () => {
    const opened: ExplorerAction[] = [
      act.naming({ mode: 'rename', entry }),
      act.deleting(['/m/a']),
      act.moving({ mode: 'copy', paths: ['/m/a'] }),
      act.sharing(entry),
      act.link({ title: 't', url: 'u' }),
    ];
    for (const a of opened) expect(dialogOpen(run(a), null)).toBe(true);
    expect(dialogOpen(start(), '/m/a')).toBe(true);
    const closed = run(
      ...opened,
      act.naming(null),
      act.deleting(null),
      act.moving(null),
      act.sharing(null),
      act.link(null),
    );
    expect(dialogOpen(closed, null)).toBe(false);
  });

  it('a finished transfer closes the picker and clears the selection', () => {
    const s = run(act.selectAll(paths), act.moving({ mode: 'move', paths }), act.transferDone());
    expect(s.moving).toBeNull();
    expect(s.sel).toBe(NO_SELECTION);
  });

  it('a made share closes its options and shows its link', () => {
    const s = run(act.sharing(entry), act.shared({ title: 'Share b', url: 'https://x/s/1' }));
    expect(s.sharing).toBeNull();
    expect(s.link).toEqual({ title: 'Share b', url: 'https://x/s/1' });
  });

  it('the conflict question is kept until answered', () => {
    const question = { name: 'a', folder: '/m', remaining: 0, answer: () => undefined };
    expect(run(act.conflict(question)).conflict).toBe(question);
    expect(run(act.conflict(question), act.conflict(null)).conflict).toBeNull();
  });

  it('flags switch one at a time', () => {
    const s = run(act.flag('dragging', true), act.flag('searching', true), act.flag('dragging', false));
    expect(s.dragging).toBe(false);
    expect(s.searching).toBe(true);
    expect(s.transferring || s.refreshing || s.sharingBusy).toBe(false);
  });

  it('never changes the state it is given', () => {
    const before = start();
    const copy = { ...before };
    explorerReducer(before, act.click(paths, 1, { shift: false, toggle: false }));
    explorerReducer(before, act.flag('refreshing', true));
    expect(before).toEqual(copy);
  });
});
