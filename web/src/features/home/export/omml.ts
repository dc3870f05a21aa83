/**
 * KaTeX's MathML → a Word equation (Office MathML, `m:oMath`), built from `docx` components. Part of the lazily
 * loaded Word export. Constructs Word has no counterpart for fall back to their content in a plain row.
 */
import { BuilderElement, Math as OfficeMath, type MathComponent, type ParagraphChild, type XmlComponent } from 'docx';

type Part = XmlComponent;

function el(name: string, children: readonly Part[] = [], attributes?: Record<string, string>): Part {
  const payload = attributes
    ? Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, { key, value }]))
    : undefined;
  return new BuilderElement({ name, attributes: payload, children });
}

/** An OMML `<m:{name} m:val="…"/>` property. */
function prop(name: string, value: string): Part {
  return el(name, [], { 'm:val': value });
}

/** How a run's text is set: math italic (Word's default for letters), upright, or ordinary text. */
type RunStyle = 'math' | 'upright' | 'text';

function run(text: string, style: RunStyle = 'math'): Part {
  const t = el('m:t', [], { 'xml:space': 'preserve' });
  t.addChildElement(text);
  const props =
    style === 'upright' ? [el('m:rPr', [prop('m:sty', 'p')])] : style === 'text' ? [el('m:rPr', [el('m:nor')])] : [];
  return el('m:r', [...props, t]);
}

/** An OMML argument slot (`m:e`, `m:num`, `m:sup` …) holding `children`. */
function slot(name: string, children: Part[]): Part {
  return el(name, children);
}

function elementChildren(node: Element): Element[] {
  return [...node.children];
}

/** Large operators Word draws as n-ary (`m:nary`) with their limits. */
const NARY = new Set([...'∑∏∐∫∬∭∮∯∰⋀⋁⋂⋃⨀⨁⨂⨄⨆']);

/**
 * `\\sum_{i=1}^{n}`, `\\int_a^b` … as `m:nary`: MathML writes the operator with its limits (munderover, msubsup …)
 * and the summand after it; Word wants the summand inside. The element that follows (unless it is an operator
 * such as `=`) becomes the body.
 */
function nary(node: Element, next: Element | undefined): { part: Part; usesNext: boolean } | null {
  const kids = elementChildren(node);
  const tag = node.localName;
  const base = tag === 'mo' ? node : kids[0];
  const chr = base?.localName === 'mo' ? (base.textContent ?? '').trim() : '';
  if (!NARY.has(chr)) return null;
  let sub: Element | undefined;
  let sup: Element | undefined;
  if (tag === 'munderover' || tag === 'msubsup') [sub, sup] = [kids[1], kids[2]];
  else if (tag === 'munder' || tag === 'msub') sub = kids[1];
  else if (tag === 'mover' || tag === 'msup') sup = kids[1];
  else if (tag !== 'mo') return null;
  const underOver = tag === 'munderover' || tag === 'munder' || tag === 'mover';
  const usesNext = next !== undefined && next.localName !== 'mo';
  const props = [
    prop('m:chr', chr),
    prop('m:limLoc', underOver ? 'undOvr' : 'subSup'),
    ...(sub ? [] : [prop('m:subHide', '1')]),
    ...(sup ? [] : [prop('m:supHide', '1')]),
  ];
  return {
    part: el('m:nary', [
      el('m:naryPr', props),
      slot('m:sub', arg(sub)),
      slot('m:sup', arg(sup)),
      slot('m:e', usesNext ? convert(next) : []),
    ]),
    usesNext,
  };
}

function convertAll(nodes: Element[]): Part[] {
  const out: Part[] = [];
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    const operator = node.localName === 'mo' ? null : nary(node, nodes[i + 1]);
    if (operator) {
      out.push(operator.part);
      if (operator.usesNext) i += 1;
    } else out.push(...convert(node));
  }
  return out;
}

function arg(node: Element | undefined): Part[] {
  return node ? convert(node) : [];
}

const UPRIGHT_VARIANTS = new Set(['normal', 'bold', 'monospace', 'sans-serif', 'double-struck']);

function tokenRun(node: Element): Part[] {
  // Invisible operators (function application, invisible times …) mean nothing to Word: Word spaces by itself.
  const text = (node.textContent ?? '').replace(/\s+/g, ' ').replace(/[\u2061-\u2064]/g, '');
  if (!text) return [];
  const tag = node.localName;
  if (tag === 'mtext' || tag === 'ms') return [run(text, 'text')];
  const variant = node.getAttribute('mathvariant');
  // <mi> with more than one letter (sin, log, a named operator) is upright in MathML; so is an explicit variant.
  if (tag === 'mi' && ((variant && UPRIGHT_VARIANTS.has(variant)) || [...text].length > 1)) {
    return [run(text, 'upright')];
  }
  return [run(text)];
}

/** `\\hat{x}`, `\\overline{ab}` (an accent) or a limit above/below (`\\lim_{x}`, `\\overset`). */
function overUnder(base: Element | undefined, mark: Element | undefined, under: boolean, isAccent: boolean): Part[] {
  const chr = (mark?.textContent ?? '').trim();
  if (isAccent && !under && chr && [...chr].length === 1) {
    return [el('m:acc', [el('m:accPr', [prop('m:chr', chr)]), slot('m:e', arg(base))])];
  }
  return [el(under ? 'm:limLow' : 'm:limUpp', [slot('m:e', arg(base)), slot('m:lim', arg(mark))])];
}

function convert(node: Element): Part[] {
  const kids = elementChildren(node);
  switch (node.localName) {
    case 'semantics':
      // The first child is the presentation markup; the rest are annotations (the TeX source).
      return arg(kids.find((k) => k.localName !== 'annotation' && k.localName !== 'annotation-xml'));
    case 'annotation':
    case 'annotation-xml':
      return [];
    case 'mi':
    case 'mn':
    case 'mo':
    case 'mtext':
    case 'ms':
      return tokenRun(node);
    case 'mspace': {
      const width = parseFloat(node.getAttribute('width') ?? '0');
      return width > 0 ? [run('\u2009', 'text')] : [];
    }
    case 'mfrac': {
      const props = node.getAttribute('linethickness') === '0px' ? [el('m:fPr', [prop('m:type', 'noBar')])] : [];
      return [el('m:f', [...props, slot('m:num', arg(kids[0])), slot('m:den', arg(kids[1]))])];
    }
    case 'msup':
      return [el('m:sSup', [slot('m:e', arg(kids[0])), slot('m:sup', arg(kids[1]))])];
    case 'msub':
      return [el('m:sSub', [slot('m:e', arg(kids[0])), slot('m:sub', arg(kids[1]))])];
    case 'msubsup':
      return [el('m:sSubSup', [slot('m:e', arg(kids[0])), slot('m:sub', arg(kids[1])), slot('m:sup', arg(kids[2]))])];
    case 'msqrt':
      return [el('m:rad', [el('m:radPr', [prop('m:degHide', '1')]), slot('m:deg', []), slot('m:e', convertAll(kids))])];
    case 'mroot':
      return [el('m:rad', [slot('m:deg', arg(kids[1])), slot('m:e', arg(kids[0]))])];
    case 'mover':
      return overUnder(kids[0], kids[1], false, node.getAttribute('accent') === 'true');
    case 'munder':
      return overUnder(kids[0], kids[1], true, false);
    case 'munderover':
      return [
        el('m:limUpp', [
          slot('m:e', [el('m:limLow', [slot('m:e', arg(kids[0])), slot('m:lim', arg(kids[1]))])]),
          slot('m:lim', arg(kids[2])),
        ]),
      ];
    case 'mtable': {
      const rows = kids.filter((row) => row.localName === 'mtr' || row.localName === 'mlabeledtr');
      if (rows.length === 0) return [];
      return [
        el(
          'm:m',
          rows.map((row) =>
            el(
              'm:mr',
              elementChildren(row)
                .filter((cell) => cell.localName === 'mtd')
                .map((cell) => slot('m:e', convertAll(elementChildren(cell)))),
            ),
          ),
        ),
      ];
    }
    case 'menclose':
      return [el('m:borderBox', [slot('m:e', convertAll(kids))])];
    case 'mphantom':
      return [el('m:phant', [slot('m:e', convertAll(kids))])];
    default:
      // math, mrow, mstyle, mpadded, merror and anything unknown: their content in a row.
      return convertAll(kids);
  }
}

/** The Word equation for one KaTeX `<math>` element (inline: `m:oMath`; display: inside `m:oMathPara`). */
export function mathmlToOmml(math: Element, display: boolean): ParagraphChild {
  const equation = new OfficeMath({ children: convert(math) as unknown as MathComponent[] });
  if (!display) return equation;
  return el('m:oMathPara', [equation]) as unknown as ParagraphChild;
}
