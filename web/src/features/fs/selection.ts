/** Click selection over a list (click, shift-click range, ctrl/cmd-click toggle). Pure, unit-tested. */
export interface SelectionState {
  selected: ReadonlySet<string>;
  anchor: number;
}

export function clickSelect(
  state: SelectionState,
  paths: readonly string[],
  index: number,
  mods: { shift: boolean; toggle: boolean },
): SelectionState {
  const path = paths[index];
  if (path === undefined) return state;
  if (mods.shift && state.anchor >= 0) {
    const [from, to] = state.anchor < index ? [state.anchor, index] : [index, state.anchor];
    const next = new Set(mods.toggle ? state.selected : []);
    for (let i = from; i <= to; i++) next.add(paths[i]!);
    return { selected: next, anchor: state.anchor };
  }
  if (mods.toggle) {
    const next = new Set(state.selected);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    return { selected: next, anchor: index };
  }
  return { selected: new Set([path]), anchor: index };
}
