/**
 * Resolves in a new task: work after `await nextTask()` runs apart from the work before it, so the page can paint
 * and take input between (a long task blocks both; Lighthouse counts it as blocking time).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
