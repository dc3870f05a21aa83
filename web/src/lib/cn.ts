import { clsx, type ClassValue } from 'clsx';
import { mergeClasses } from './classMerge';

export function cn(...inputs: ClassValue[]): string {
  return mergeClasses(clsx(inputs));
}
