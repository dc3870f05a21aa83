import { toSheets, type SheetAnswer, type SheetData, type SheetRequest } from './sheetTypes';

/** Parses a spreadsheet or CSV in a short-lived worker (SheetJS never runs in the page). */
export function readSheets(
  data: ArrayBuffer,
  format: SheetRequest['format'],
  limits: { maxRows: number; maxColumns: number; sheet?: number },
  signal?: AbortSignal,
): Promise<SheetData[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sheet.worker.ts', import.meta.url), {
      type: 'module',
      name: 'clipnest-sheet',
    });
    const stop = () => {
      worker.terminate();
      reject(new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<SheetAnswer>) => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      const answer = event.data;
      try {
        if (answer && answer.ok === true) resolve(toSheets(answer.sheets));
        else reject(new Error(answer && answer.ok === false ? String(answer.error) : 'bad sheet answer'));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    worker.onerror = (event) => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      reject(new Error(event.message || 'sheet worker failed'));
    };
    const request: SheetRequest = { data, format, ...limits };
    worker.postMessage(request, [data]);
  });
}
