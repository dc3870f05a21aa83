/**
 * The page frame's classes, shared by the app's layout (RootLayout, Header) and the first paint the server renders
 * (PagePrepaint), so that paint sits exactly where the app then draws the page.
 */
export const FRAME_CLASS = 'flex min-h-dvh flex-col';
export const HEADER_CLASS =
  'sticky top-0 z-30 border-b border-border bg-background/85 backdrop-blur-md supports-[backdrop-filter]:bg-background/75';
export const HEADER_ROW_CLASS = 'mx-auto flex h-14 max-w-screen-2xl items-center gap-2 px-3 sm:px-5';
export const BRAND_CLASS = '-ms-1 flex min-w-0 items-center gap-2.5 rounded-lg px-1 py-1 font-semibold tracking-tight';
export const BRAND_TITLE_CLASS = 'truncate text-[17px]';
/** Public pages fill the screen, so the footer starts below the fold and never jumps as a lazy screen arrives. */
export const PUBLIC_MAIN_CLASS = 'min-h-dvh px-4 py-8 sm:px-6 sm:py-12';
export const MAIN_CLASS = 'flex flex-1 flex-col outline-none';
