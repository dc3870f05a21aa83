import { describe, expect, it } from 'vitest';
import { clickSelect } from './selection';

const paths = ['/a', '/b', '/c', '/d'];
const empty = { selected: new Set<string>(), anchor: -1 };

describe('click selection', () => {
  it('selects one, toggles with ctrl, ranges with shift', () => {
    const one = clickSelect(empty, paths, 1, { shift: false, toggle: false });
    expect([...one.selected]).toEqual(['/b']);
    const two = clickSelect(one, paths, 3, { shift: false, toggle: true });
    expect([...two.selected].sort()).toEqual(['/b', '/d']);
    const off = clickSelect(two, paths, 3, { shift: false, toggle: true });
    expect([...off.selected]).toEqual(['/b']);
    const range = clickSelect(one, paths, 3, { shift: true, toggle: false });
    expect([...range.selected]).toEqual(['/b', '/c', '/d']);
    const back = clickSelect(one, paths, 0, { shift: true, toggle: false });
    expect([...back.selected]).toEqual(['/a', '/b']);
  });
});
