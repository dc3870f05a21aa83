import type { BrowserContext } from '@playwright/test';

export interface Weight {
  raw: number;
  transferred: number;
  count: number;
}
export interface RouteBudget {
  name: string;
  label: string;
  seed: 'none' | 'paste' | 'file';
  path?: string;
  admin?: boolean;
  target: number;
  limit?: number;
}
export interface RouteWeight {
  js: Weight;
  css: Weight;
  total: Weight;
  /** Bodies and headers of every response. */
  wire: number;
  requests: number;
}
export function loadBudgets(): { routes: RouteBudget[]; pasteTotal: { target: number; limit?: number } };
export const SAMPLE_MARKDOWN: string;
export function seedRoutes(baseUrl: string, token: string, routes: RouteBudget[]): Promise<Record<string, string>>;
export function measureRoute(context: BrowserContext, url: string): Promise<RouteWeight>;
export function kb(bytes: number): number;
