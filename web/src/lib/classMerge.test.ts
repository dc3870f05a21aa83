import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { classGroup, mergeClasses, parseClass } from './classMerge';

/** Every class-like word in the app's source: the classes cn() can be handed, and some words that are not classes. */
function sourceClasses(): string[] {
  const root = path.resolve(import.meta.dirname, '..');
  const words = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.ts$|^classMerge\.ts$/.test(entry.name)) {
        for (const literal of readFileSync(full, 'utf8').matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) {
          for (const word of literal[2]!.split(/\s+/)) {
            if (/^(?:[\w-]+:|\[[^\]]*\]:)*!?-?[a-z][\w\-./[\]()%#,:]*!?$/.test(word)) words.add(word);
          }
        }
      }
    }
  };
  visit(root);
  // Words neither side takes for a class never conflict with anything: leaving them out keeps the pairs few.
  return [...words].filter((w) => classGroup(parseClass(w).utility) !== undefined || twMerge(`${w} ${w}`) === w);
}

describe('mergeClasses', () => {
  it('agrees with tailwind-merge on every pair of classes the source writes', { timeout: 60_000 }, () => {
    const classes = sourceClasses();
    expect(classes.length).toBeGreaterThan(500);
    const disagreements: string[] = [];
    for (const a of classes) {
      for (const b of classes) {
        const input = `${a} ${b}`;
        const ours = mergeClasses(input);
        if (ours !== twMerge(input))
          disagreements.push(`${input} → ours "${ours}", tailwind-merge "${twMerge(input)}"`);
      }
    }
    expect(disagreements.slice(0, 40)).toEqual([]);
  });

  it('keeps variants apart, lets the last class of a kind win and keeps what it does not know', () => {
    expect(mergeClasses('px-4 py-2 hover:bg-primary bg-surface p-0 hover:bg-muted')).toBe(
      'bg-surface p-0 hover:bg-muted',
    );
    expect(mergeClasses('p-0 px-3')).toBe('p-0 px-3');
    expect(mergeClasses('text-sm leading-6 text-lg')).toBe('text-lg');
    expect(mergeClasses('my-widget  sm:w-1/2 w-full sm:w-auto')).toBe('my-widget w-full sm:w-auto');
    expect(mergeClasses('h-[calc(100dvh-3.5rem)] size-10 -mt-2 my-1')).toBe('size-10 my-1');
    expect(mergeClasses('')).toBe('');
  });
});
