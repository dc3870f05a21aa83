/**
 * Sanitising rendered Markdown (and Mermaid SVG). Everything a paste shows passes through here:
 * no script, no event handlers, no javascript: URLs, no styles or classes that escape the box.
 * A private DOMPurify instance, so hooks here never leak into other callers (the footer renderer).
 */
import DOMPurify, { type Config } from 'dompurify';

/** Classes with a rule in katex.min.css (a class without a rule does nothing, so others may go). */
const KATEX_CLASSES = new Set(
  (
    'accent accent-body accent-full amsrm angl anglpad arraycolsep base boldsymbol boxpad brace-center brace-left ' +
    'brace-right cancel-lap cancel-pad cd-arrow-pad cd-label-left cd-label-right cd-vert-arrow clap col-align-c ' +
    'col-align-l col-align-r delim-size1 delim-size4 delimcenter delimsizing eqn-num fbox fcolorbox fix fleqn ' +
    'fontsize-ensurer frac-line halfarrow-left halfarrow-right hbox hdashline hide-tail hline inner katex ' +
    'katex-display katex-html katex-mathml katex-version large-op leqno llap mainrm mathbb mathbf mathboldfrak ' +
    'mathboldsf mathcal mathfrak mathit mathitsf mathnormal mathrm mathscr mathsf mathsfit mathtt mfrac ' +
    'mml-eqn-num mover mspace msupsub mtable mtr-glue mult munder newline nulldelimiter op-limits op-symbol ' +
    'overlay overline overline-line pstrut reset-size1 reset-size10 reset-size11 reset-size2 reset-size3 ' +
    'reset-size4 reset-size5 reset-size6 reset-size7 reset-size8 reset-size9 rlap root rule size1 size10 size11 ' +
    'size2 size3 size4 size5 size6 size7 size8 size9 sizing small-op sout sqrt stretchy strut svg-align tag ' +
    'textbb textbf textboldfrak textboldsf textfrak textit textitsf textrm textscr textsf texttt thinbox ' +
    'underline underline-line vbox vertical-separator vlist vlist-r vlist-s vlist-t vlist-t2 x-arrow x-arrow-pad'
  ).split(' '),
);

/** Our renderer's and highlight.js's classes; anything else (e.g. page utility classes) is dropped. */
export function isAllowedClass(name: string): boolean {
  return (
    KATEX_CLASSES.has(name) ||
    /^hljs(-[\w-]+)?$/.test(name) ||
    /^language-[\w+#.-]{1,40}$/.test(name) ||
    /^md-[\w-]+$/.test(name) ||
    name === 'task-list-item' ||
    name === 'contains-task-list'
  );
}

/** CSS properties a paste may set inline (KaTeX needs sizes and offsets; authors may colour text). */
const ALLOWED_STYLE_PROPERTIES = new Set([
  'color',
  'background-color',
  'border-color',
  'border-style',
  'border-width',
  'border-top-width',
  'border-bottom-width',
  'border-right-width',
  'border-left-width',
  'text-align',
  'vertical-align',
  'font-weight',
  'font-style',
  'text-decoration',
  'white-space',
  'height',
  'width',
  'min-width',
  'max-width',
  'min-height',
  'max-height',
  'top',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
]);

const UNSAFE_STYLE_VALUE =
  /url\s*\(|expression\s*\(|image-set|image\s*\(|element\s*\(|var\s*\(|env\s*\(|@|\\|<|>|javascript:/i;

/** Keeps only allowed, harmless declarations. Returns '' when nothing survives. */
export function filterStyle(style: string): string {
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 1) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (!value || !ALLOWED_STYLE_PROPERTIES.has(property) || UNSAFE_STYLE_VALUE.test(value)) continue;
    kept.push(`${property}:${value}`);
  }
  return kept.join(';');
}

const FORBID_TAGS = [
  'style',
  'link',
  'meta',
  'base',
  'form',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'template',
  'slot',
  'noscript',
  'dialog',
  'foreignObject',
  'animate',
  'set',
  'animateMotion',
  'animateTransform',
];
const FORBID_ATTR = [
  'autofocus',
  'formaction',
  'popover',
  'popovertarget',
  'popovertargetaction',
  'accesskey',
  'tabindex',
];

/**
 * Every id and name in rendered content gets this prefix (DOMPurify's SANITIZE_NAMED_PROPS, whose
 * prefix is fixed to this), so content can never clobber a global (`window.foo`, `document.foo`)
 * or an id the app uses.
 */
export const ID_PREFIX = 'user-content-';

let purify: ReturnType<typeof DOMPurify> | null = null;

function instance(): ReturnType<typeof DOMPurify> {
  if (purify) return purify;
  const p = DOMPurify(window);
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'style') {
      const filtered = filterStyle(data.attrValue);
      if (filtered) data.attrValue = filtered;
      else data.keepAttr = false;
    } else if (data.attrName === 'class') {
      const filtered = data.attrValue.split(/\s+/).filter(isAllowedClass).join(' ');
      if (filtered) data.attrValue = filtered;
      else data.keepAttr = false;
    }
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    switch (el.tagName) {
      case 'A': {
        const href = el.getAttribute('href');
        if (href?.startsWith('#')) {
          // In-page anchors point at the prefixed ids (SANITIZE_NAMED_PROPS below).
          if (href.length > 1 && !href.startsWith(`#${ID_PREFIX}`))
            el.setAttribute('href', `#${ID_PREFIX}${href.slice(1)}`);
        } else if (href) {
          el.setAttribute('target', '_blank');
          el.setAttribute('rel', 'noopener noreferrer nofollow');
        }
        break;
      }
      case 'INPUT':
        // Only GFM task-list checkboxes, and never editable.
        if ((el.getAttribute('type') ?? '').toLowerCase() !== 'checkbox') el.remove();
        else {
          el.setAttribute('disabled', '');
          el.removeAttribute('name');
          el.removeAttribute('value');
        }
        break;
      case 'IMG':
        el.setAttribute('loading', 'lazy');
        el.setAttribute('referrerpolicy', 'no-referrer');
        break;
    }
  });
  purify = p;
  return p;
}

const HTML_CONFIG: Config = {
  USE_PROFILES: { html: true, svg: true, mathMl: true },
  // KaTeX wraps its MathML in <semantics> with the TeX source in an <annotation> (text only; `annotation-xml`,
  // which may hold HTML, stays out). Without them the TeX is left behind as loose text inside <math>, and
  // exports (Word, plain text) that read the math write every formula two or three times.
  ADD_TAGS: ['semantics', 'annotation'],
  FORBID_TAGS,
  FORBID_ATTR,
  SANITIZE_NAMED_PROPS: true,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

/** Sanitises rendered Markdown HTML into a safe string. */
export function sanitizeHtml(html: string): string {
  return instance().sanitize(html, { ...HTML_CONFIG, RETURN_TRUSTED_TYPE: false }) as string;
}

const SVG_CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true, html: true },
  // Mermaid styles its diagram with an internal <style> and some diagrams put labels in a
  // <foreignObject>; the SVG is shown as an <img>, which runs no script and loads nothing.
  ADD_TAGS: ['style', 'foreignObject'],
  FORBID_TAGS: [
    'script',
    'a',
    'animate',
    'set',
    'animateMotion',
    'animateTransform',
    'image',
    'iframe',
    'object',
    'embed',
  ],
  ALLOW_DATA_ATTR: false,
};

/** Sanitises an SVG document (Mermaid output) for use as an image. */
export function sanitizeSvg(svg: string): string {
  return DOMPurify(window).sanitize(svg, { ...SVG_CONFIG, RETURN_TRUSTED_TYPE: false }) as string;
}
