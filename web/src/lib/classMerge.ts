/**
 * Later Tailwind classes win over earlier ones of the same kind (`px-4` then `px-2` keeps `px-2`; `p-0` drops an
 * earlier `px-4`), with the variants (`hover:`, `sm:`) kept apart. The rules of tailwind-merge for the utilities
 * this app writes, in ~1 KB instead of its ~7 KB and its 10–40 ms first call on every cold page:
 * `classMerge.test.ts` checks every pair of classes in the source against tailwind-merge itself.
 * A class it does not know never conflicts (kept as written).
 */

const SIDES = ['t', 'r', 'b', 'l', 's', 'e'];
const SPACING_AXES: Record<string, string[]> = { '': ['x', 'y', ...SIDES], x: ['r', 'l', 's', 'e'], y: ['t', 'b'] };
const CORNERS: Record<string, string[]> = {
  '': ['s', 'e', 't', 'r', 'b', 'l', 'ss', 'se', 'ee', 'es', 'tl', 'tr', 'br', 'bl'],
  s: ['ss', 'es'],
  e: ['se', 'ee'],
  t: ['tl', 'tr'],
  r: ['tr', 'br'],
  b: ['br', 'bl'],
  l: ['tl', 'bl'],
};

const KEYWORDS: Record<string, string> = {};
const keywords = (group: string, words: string) => words.split(' ').forEach((w) => (KEYWORDS[w] = group));
keywords(
  'display',
  'block inline-block inline flex inline-flex table inline-table table-cell table-row flow-root grid inline-grid contents list-item hidden',
);
keywords('position', 'static fixed absolute relative sticky');
keywords('visibility', 'visible invisible collapse');
keywords('text-overflow', 'truncate text-ellipsis text-clip');
keywords('text-transform', 'uppercase lowercase capitalize normal-case');
keywords('font-style', 'italic not-italic');
keywords('text-decoration', 'underline overline line-through no-underline');
keywords('sr', 'sr-only not-sr-only');
keywords('grow', 'grow');
keywords('shrink', 'shrink');
keywords('transform', 'transform transform-none transform-gpu transform-cpu');
keywords('border-collapse', 'border-collapse border-separate');
keywords('blur', 'blur');
keywords('filter', 'filter filter-none');
keywords('fvn-spacing', 'tabular-nums proportional-nums');
keywords('table-layout', 'table-auto table-fixed');
keywords('list-style-type', 'list-none list-disc list-decimal');
keywords('appearance', 'appearance-none appearance-auto');
keywords('divide-x', 'divide-x');
keywords('divide-y', 'divide-y');
keywords('animate', 'animate-spin animate-ping animate-pulse animate-bounce animate-none');
keywords('backdrop-blur', 'backdrop-blur');

/** Utilities named `<prefix>-<value>` whose kind the prefix alone decides, longest prefix first. */
const PREFIXES = [
  'overscroll-x',
  'overscroll-y',
  'overscroll',
  'auto-cols',
  'auto-rows',
  'grid-flow',
  'divide-x',
  'divide-y',
  'divide',
  'accent',
  'align',
  'resize',
  'line-clamp',
  'max-w',
  'max-h',
  'min-w',
  'min-h',
  'space-x',
  'space-y',
  'inset-x',
  'inset-y',
  'gap-x',
  'gap-y',
  'grid-cols',
  'grid-rows',
  'col-span',
  'col-start',
  'col-end',
  'row-span',
  'row-start',
  'row-end',
  'overflow-x',
  'overflow-y',
  'translate-x',
  'translate-y',
  'outline-offset',
  'ring-offset',
  'underline-offset',
  'backdrop-blur',
  'pointer-events',
  'justify-items',
  'justify-self',
  'place-items',
  'place-content',
  'place-self',
  'whitespace',
  'tracking',
  'leading',
  'overflow',
  'duration',
  'cursor',
  'select',
  'opacity',
  'aspect',
  'order',
  'basis',
  'inset',
  'items',
  'self',
  'size',
  'grow',
  'shrink',
  'delay',
  'ease',
  'blur',
  'scale',
  'rotate',
  'top',
  'right',
  'bottom',
  'left',
  'start',
  'end',
  'gap',
  'fill',
  'z',
  'w',
  'h',
];

const INSETS = new Set(['inset', 'inset-x', 'inset-y', 'top', 'right', 'bottom', 'left', 'start', 'end']);
const INSET_VALUE = /^(\d|px$|auto$|full$|\[|\()/;
const FONT_SIZES = /^(xs|sm|base|lg|\d?xl)(\/.+)?$/;
const FONT_WEIGHTS = /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\d+)$/;
const ARBITRARY_LENGTH = /^\[(length:)?[\d.]+(px|rem|em|%)\]$/;
const ARBITRARY_COLOR = /^\[(color:|#|rgb|hsl|oklch)/;
const WIDTH = /^(\d+(\.\d+)?|\[(length:)?[\d.]+(px|rem|em)\]|px)$/;
const SHADOW_SIZES = /^(2xs|xs|sm|md|lg|xl|2xl|none|inner)$/;
const LINE_STYLES = /^(solid|dashed|dotted|double|hidden|none)$/;

/** The kind of utility (`p`, `text-color`, `rounded-t`…), or undefined for a class this merge does not know. */
export function classGroup(utility: string): string | undefined {
  const base = utility.startsWith('-') ? utility.slice(1) : utility;
  const keyword = KEYWORDS[base];
  if (keyword) return keyword;
  const dash = base.indexOf('-');
  const head = dash < 0 ? base : base.slice(0, dash);
  const value = dash < 0 ? '' : base.slice(dash + 1);
  const spacing = /^([pm])([xytrblse]?)$/.exec(head);
  if (spacing && value) return head;
  switch (head) {
    case 'text':
      if (FONT_SIZES.test(value) || ARBITRARY_LENGTH.test(value)) return 'font-size';
      if (/^(left|center|right|justify|start|end)$/.test(value)) return 'text-align';
      if (/^(wrap|nowrap|balance|pretty)$/.test(value)) return 'text-wrap';
      return value ? 'text-color' : undefined;
    case 'font':
      if (FONT_WEIGHTS.test(value)) return 'font-weight';
      return value ? 'font-family' : undefined;
    case 'bg':
      if (
        /^(fixed|local|scroll|clip-.*|origin-.*|none|gradient-.*|linear-.*|radial.*|conic.*|cover|contain|auto|center|top|bottom|left|right|repeat.*|no-repeat)$/.test(
          value,
        )
      )
        return undefined;
      if (value.startsWith('[length:') || value.startsWith('[size:')) return 'bg-size';
      if (/^\[(url\(|[a-z-]*gradient\()/.test(value)) return 'bg-image';
      if (value.startsWith('[')) return ARBITRARY_COLOR.test(value) ? 'bg-color' : undefined;
      return value ? 'bg-color' : undefined;
    case 'border': {
      const side = /^([xytrblse])(?:-(.*))?$/.exec(value);
      const rest = side ? (side[2] ?? '') : value;
      const suffix = side ? `-${side[1]}` : '';
      if (!rest || WIDTH.test(rest)) return `border-w${suffix}`;
      if (!side && LINE_STYLES.test(rest)) return 'border-style';
      return `border-color${suffix}`;
    }
    case 'rounded': {
      const corner = /^(ss|se|ee|es|tl|tr|br|bl|[trblse])(?:-|$)/.exec(value);
      return corner ? `rounded-${corner[1]}` : 'rounded';
    }
    case 'shadow':
      return !value || SHADOW_SIZES.test(value) ? 'shadow' : 'shadow-color';
    case 'ring':
      if (value === 'inset') return 'ring-inset';
      return !value || WIDTH.test(value) ? 'ring-w' : 'ring-color';
    case 'outline':
      if (!value || WIDTH.test(value)) return 'outline-w';
      if (LINE_STYLES.test(value)) return 'outline-style';
      if (value.startsWith('offset-')) return 'outline-offset';
      return 'outline-color';
    case 'stroke':
      return WIDTH.test(value) ? 'stroke-w' : 'stroke';
    case 'flex':
      if (/^(row|row-reverse|col|col-reverse)$/.test(value)) return 'flex-direction';
      if (/^(wrap|wrap-reverse|nowrap)$/.test(value)) return 'flex-wrap';
      return 'flex';
    case 'justify':
      return value.startsWith('items-') || value.startsWith('self-') ? undefined : 'justify-content';
    case 'object':
      if (!value) return undefined;
      return /^(contain|cover|fill|none|scale-down)$/.test(value) ? 'object-fit' : 'object-position';
    case 'break':
      return /^(normal|words|all|keep)$/.test(value) ? 'word-break' : undefined;
    case 'transition':
      return 'transition';
    case 'content':
      if (/^(normal|center|start|end|between|around|evenly|baseline|stretch)$/.test(value)) return 'align-content';
      return /^[[(]/.test(value) ? 'content' : undefined;
  }
  for (const prefix of PREFIXES) {
    if (base.length <= prefix.length + 1 || !base.startsWith(`${prefix}-`)) continue;
    // `top-center` is a toast position, not an offset
    if (INSETS.has(prefix) && !INSET_VALUE.test(base.slice(prefix.length + 1))) return undefined;
    return prefix;
  }
  return undefined;
}

/** Kinds a class of the given kind also overrides (`p-0` sets `px`, `size-4` sets `w` and `h`). */
function overridden(group: string): string[] {
  const spacing = /^([pm])([xy]?)$/.exec(group);
  if (spacing) return SPACING_AXES[spacing[2] ?? '']!.map((axis) => spacing[1] + axis);
  const rounded = /^rounded(?:-(.+))?$/.exec(group);
  if (rounded) return (CORNERS[rounded[1] ?? ''] ?? []).map((c) => `rounded-${c}`);
  const border = /^border-(w|color)(?:-([xy]))?$/.exec(group);
  if (border) return SPACING_AXES[border[2] ?? '']!.map((side) => `border-${border[1]}-${side}`);
  switch (group) {
    case 'inset':
      return ['inset-x', 'inset-y', 'start', 'end', 'top', 'right', 'bottom', 'left'];
    case 'inset-x':
      return ['right', 'left', 'start', 'end'];
    case 'inset-y':
      return ['top', 'bottom'];
    case 'gap':
      return ['gap-x', 'gap-y'];
    case 'size':
      return ['w', 'h'];
    case 'flex':
      return ['basis', 'grow', 'shrink'];
    case 'overflow':
      return ['overflow-x', 'overflow-y'];
    case 'font-size':
      return ['leading'];
    case 'line-clamp':
      return ['display', 'overflow'];
  }
  return [];
}

/** Splits `sm:hover:!px-2` into its variants (`sm:hover:`), important mark and utility. */
export function parseClass(token: string): { variants: string; important: boolean; utility: string } {
  let depth = 0;
  let cut = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ':' && depth === 0) cut = i + 1;
  }
  let utility = token.slice(cut);
  let important = false;
  if (utility.startsWith('!')) [utility, important] = [utility.slice(1), true];
  else if (utility.endsWith('!')) [utility, important] = [utility.slice(0, -1), true];
  return { variants: token.slice(0, cut), important, utility };
}

/** Joins class lists, later classes overriding earlier ones of the same kind and variants. */
export function mergeClasses(classes: string): string {
  const tokens = classes.split(/\s+/).filter(Boolean);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    const { variants, important, utility } = parseClass(token);
    const group = classGroup(utility);
    if (group === undefined) {
      kept.push(token);
      continue;
    }
    const scope = variants + (important ? '!' : '');
    const key = scope + group;
    if (taken.has(key)) continue;
    taken.add(key);
    for (const other of overridden(group)) taken.add(scope + other);
    kept.push(token);
  }
  return kept.reverse().join(' ');
}
