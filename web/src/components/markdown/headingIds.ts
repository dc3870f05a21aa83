import type { MarkedExtension, Tokens } from 'marked';

// GitHub's heading ids (what github-slugger computes) without its 8 KB generated character table: the same rule
// written with Unicode property escapes. Keep letters, marks, numbers, connector punctuation, spaces and hyphens;
// spaces become hyphens; a repeated slug gets `-1`, `-2`… within one document.
const NOT_SLUG = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;
const ENTITY = /&(#\d+|#x[0-9a-f]+|\w+);?/gi;

/** The text of a heading's inline HTML: entities decoded as marked-gfm-heading-id did, tags dropped. */
function plainText(html: string): string {
  return html
    .replace(ENTITY, (_, name: string) => {
      const n = name.toLowerCase();
      if (n === 'colon') return ':';
      if (n.startsWith('#x')) return String.fromCharCode(parseInt(n.slice(2), 16));
      if (n.startsWith('#')) return String.fromCharCode(Number(n.slice(1)));
      return '';
    })
    .trim()
    .replace(/<[!/a-z].*?>/gi, '');
}

export function slugify(text: string): string {
  return text.toLowerCase().replace(NOT_SLUG, '').replace(/ /g, '-');
}

/** A slugger that numbers repeats, as GitHub does. */
export function createSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = slugify(text);
    let slug = base;
    while (seen.has(slug)) {
      const next = (seen.get(base) ?? 0) + 1;
      seen.set(base, next);
      slug = `${base}-${next}`;
    }
    seen.set(slug, 0);
    return slug;
  };
}

/** A marked extension giving every heading GitHub's id (slugs restart with every document). */
export function headingIds(): MarkedExtension {
  let slug = createSlugger();
  return {
    hooks: {
      preprocess(src: string) {
        slug = createSlugger();
        return src;
      },
    },
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const text = this.parser.parseInline(tokens);
        return `<h${depth} id="${slug(plainText(text))}">${text}</h${depth}>\n`;
      },
    },
  };
}
