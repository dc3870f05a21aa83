import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/**
 * tailwind-merge builds its class map on the first call (~10 ms, ~40 ms on a slow phone). Called while the first
 * screen still loads, in a task of its own, so that cost does not add to the first render's task.
 */
export function warmUpClassMerge(): void {
  setTimeout(() => twMerge('p-1 p-2'), 0);
}
