// What one folder of the explorer holds between renders (selection, focus, open dialogs, busy flags), as a
// reducer of small pure actions (Excalidraw's way; ARCHITECTURE.md). Explorer.tsx dispatches them; the
// requests and toasts stay there.
import type { FileView, FsEntryView, ShareView } from '@clipnest/contract';
import type { ConflictQuestion } from '../fs/components/ConflictDialog';
import { clickSelect, type SelectionState } from '../fs/selection';
import type { ExplorerPrefs } from '../fs/viewPrefs';

export const NO_SELECTION: SelectionState = { selected: new Set(), anchor: -1 };

export type Naming = { mode: 'mkdir' } | { mode: 'rename'; entry: FsEntryView };
export interface Moving {
  mode: 'copy' | 'move';
  paths: string[];
}
export interface MenuAt {
  x: number;
  y: number;
  index: number;
}
/** A link shown to copy by hand (direct link, or a share just made). */
export interface LinkShown {
  title: string;
  url: string;
  share?: FileView | ShareView;
}

export interface ExplorerState {
  prefs: ExplorerPrefs;
  filter: string;
  sel: SelectionState;
  /** Index of the focused entry; -1 for none. */
  focused: number;
  menu: MenuAt | null;
  naming: Naming | null;
  /** Paths asked to be deleted (the confirm dialog is open). */
  deleting: string[] | null;
  /** Paths to copy or move (the folder picker is open). */
  moving: Moving | null;
  transferring: boolean;
  searching: boolean;
  conflict: ConflictQuestion | null;
  /** The entry whose share options are asked. */
  sharing: FsEntryView | null;
  sharingBusy: boolean;
  link: LinkShown | null;
  dragging: boolean;
  refreshing: boolean;
}

export function initialExplorerState(prefs: ExplorerPrefs): ExplorerState {
  return {
    prefs,
    filter: '',
    sel: NO_SELECTION,
    focused: -1,
    menu: null,
    naming: null,
    deleting: null,
    moving: null,
    transferring: false,
    searching: false,
    conflict: null,
    sharing: null,
    sharingBusy: false,
    link: null,
    dragging: false,
    refreshing: false,
  };
}

/** The flags an action may set one at a time. */
type Flag = 'transferring' | 'searching' | 'sharingBusy' | 'dragging' | 'refreshing';

export type ExplorerAction =
  | { type: 'prefs'; prefs: ExplorerPrefs }
  | { type: 'filter'; filter: string }
  | { type: 'select'; sel: SelectionState }
  | { type: 'selectAll'; paths: readonly string[] }
  | { type: 'focus'; index: number }
  | { type: 'click'; paths: readonly string[]; index: number; shift: boolean; toggle: boolean }
  | { type: 'step'; paths: readonly string[]; delta: 1 | -1; shift: boolean }
  | { type: 'openMenu'; at: MenuAt; path: string | undefined }
  | { type: 'closeMenu' }
  | { type: 'naming'; naming: Naming | null }
  | { type: 'deleting'; paths: string[] | null }
  | { type: 'moving'; moving: Moving | null }
  | { type: 'transferDone' }
  | { type: 'conflict'; question: ConflictQuestion | null }
  | { type: 'sharing'; entry: FsEntryView | null }
  | { type: 'shared'; link: LinkShown }
  | { type: 'link'; link: LinkShown | null }
  | { type: 'flag'; flag: Flag; on: boolean };

export const explorerActions = {
  prefs: (prefs: ExplorerPrefs): ExplorerAction => ({ type: 'prefs', prefs }),
  filter: (filter: string): ExplorerAction => ({ type: 'filter', filter }),
  select: (sel: SelectionState): ExplorerAction => ({ type: 'select', sel }),
  clearSelection: (): ExplorerAction => ({ type: 'select', sel: NO_SELECTION }),
  selectAll: (paths: readonly string[]): ExplorerAction => ({ type: 'selectAll', paths }),
  focus: (index: number): ExplorerAction => ({ type: 'focus', index }),
  /** Focuses `index` and selects as a click with these modifiers does (clickSelect). */
  click: (paths: readonly string[], index: number, mods: { shift: boolean; toggle: boolean }): ExplorerAction => ({
    type: 'click',
    paths,
    index,
    ...mods,
  }),
  /** An arrow key: focus moves one entry (kept within the list) and selects it (Shift: a range). */
  step: (paths: readonly string[], delta: 1 | -1, shift: boolean): ExplorerAction => ({
    type: 'step',
    paths,
    delta,
    shift,
  }),
  /** The context menu of entry `at.index`; an entry outside the selection becomes the selection. */
  openMenu: (at: MenuAt, path: string | undefined): ExplorerAction => ({ type: 'openMenu', at, path }),
  closeMenu: (): ExplorerAction => ({ type: 'closeMenu' }),
  naming: (naming: Naming | null): ExplorerAction => ({ type: 'naming', naming }),
  deleting: (paths: string[] | null): ExplorerAction => ({ type: 'deleting', paths }),
  moving: (moving: Moving | null): ExplorerAction => ({ type: 'moving', moving }),
  /** A copy or move was started or done: the picker closes and the selection is cleared. */
  transferDone: (): ExplorerAction => ({ type: 'transferDone' }),
  conflict: (question: ConflictQuestion | null): ExplorerAction => ({ type: 'conflict', question }),
  sharing: (entry: FsEntryView | null): ExplorerAction => ({ type: 'sharing', entry }),
  /** A share was made: its options dialog closes and its link shows. */
  shared: (link: LinkShown): ExplorerAction => ({ type: 'shared', link }),
  link: (link: LinkShown | null): ExplorerAction => ({ type: 'link', link }),
  flag: (flag: Flag, on: boolean): ExplorerAction => ({ type: 'flag', flag, on }),
};

export function explorerReducer(state: ExplorerState, action: ExplorerAction): ExplorerState {
  switch (action.type) {
    case 'prefs':
      return { ...state, prefs: action.prefs };
    case 'filter':
      return { ...state, filter: action.filter };
    case 'select':
      return { ...state, sel: action.sel };
    case 'selectAll':
      return { ...state, sel: { selected: new Set(action.paths), anchor: 0 } };
    case 'focus':
      return { ...state, focused: action.index };
    case 'click':
      return {
        ...state,
        focused: action.index,
        sel: clickSelect(state.sel, action.paths, action.index, { shift: action.shift, toggle: action.toggle }),
      };
    case 'step': {
      const next = Math.min(action.paths.length - 1, Math.max(0, state.focused + action.delta));
      return {
        ...state,
        focused: next,
        sel: clickSelect(state.sel, action.paths, next, { shift: action.shift, toggle: false }),
      };
    }
    case 'openMenu': {
      const { at, path } = action;
      const sel =
        path !== undefined && !state.sel.selected.has(path)
          ? { selected: new Set([path]), anchor: at.index }
          : state.sel;
      return { ...state, sel, focused: at.index, menu: at };
    }
    case 'closeMenu':
      return { ...state, menu: null };
    case 'naming':
      return { ...state, naming: action.naming };
    case 'deleting':
      return { ...state, deleting: action.paths };
    case 'moving':
      return { ...state, moving: action.moving };
    case 'transferDone':
      return { ...state, sel: NO_SELECTION, moving: null };
    case 'conflict':
      return { ...state, conflict: action.question };
    case 'sharing':
      return { ...state, sharing: action.entry };
    case 'shared':
      return { ...state, sharing: null, link: action.link };
    case 'link':
      return { ...state, link: action.link };
    case 'flag':
      return { ...state, [action.flag]: action.on };
  }
}

/** True while a dialog or menu is open (the explorer's keyboard shortcuts rest then). */
export function dialogOpen(state: ExplorerState, previewPath: string | null): boolean {
  return (
    state.naming !== null ||
    state.moving !== null ||
    state.deleting !== null ||
    state.link !== null ||
    state.sharing !== null ||
    previewPath !== null ||
    state.menu !== null
  );
}
