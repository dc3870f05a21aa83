import type { PasteCreated } from '@clipnest/contract';
import { PASTE_MAX_BYTES, utf8Length } from '@clipnest/contract/limits';
import { hasPermission, Permission } from '@clipnest/contract/permissions';
import {
  ChevronDown,
  ClipboardCopy,
  Eraser,
  FileDown,
  FileImage,
  FileText,
  FileType,
  FileUp,
  Link2,
  LogIn,
  Pencil,
  Eye,
} from 'lucide-react';
import { useCallback, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { markdownToSafeHtml, MarkdownView } from '../../components/markdown';
import { useMediaQuery } from '../../lib/useMediaQuery';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClasses } from '../../components/ui/button';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { Textarea } from '../../components/ui/input';
import { Tabs, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { cn } from '../../lib/cn';
import { formatBytes, formatNumber } from '../../lib/format';
import { isQueuedOffline } from '../../lib/offline/status';
import { getResolvedTheme } from '../../lib/theme';
import { useSession } from '../../lib/useSession';
import { createPaste } from '../pastes/api';
import { downloadBlob } from '../../lib/downloadBlob';
import { ShareOptionsFields } from './ShareOptions';
import { ShareResult } from './ShareResult';
import {
  contentError,
  DEFAULT_SHARE_OPTIONS,
  exportBaseName,
  toCreateInput,
  validateShareOptions,
  type ShareOptionsState,
} from '../pastes/shareForm';
import { replaceUndoably, useDraft, type Draft } from './useDraft';
import { htmlForCopy, htmlToPlainText } from './copyFormats';

const PREVIEW_ID = 'home-preview';
const MD_EXTENSIONS = /\.(md|markdown|mdown|mkd|mdwn|mdtxt|mdtext|rmd)$/i;

/** Home (spec §2): write Markdown or plain text, preview it, export it, share it. */
export default function HomePage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const [draft, setDraft] = useDraft();
  const [pane, setPane] = useState<'edit' | 'preview'>('edit');
  // Side by side from Tailwind's lg up; below, the preview renders (and loads its renderer) once its tab is open.
  const wide = useMediaQuery('(min-width: 64rem)');
  const previewShown = wide || pane === 'preview';
  const [options, setOptions] = useState<ShareOptionsState>(DEFAULT_SHARE_OPTIONS);
  const [showErrors, setShowErrors] = useState(false);
  const [contentTouched, setContentTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState<{ paste: PasteCreated; key?: string } | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  /** A file read for import while the editor holds text: replaced only once the user says so. */
  const [pendingImport, setPendingImport] = useState<{ name: string; draft: Draft } | null>(null);
  const [exporting, setExporting] = useState<'docx' | 'png' | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const editorRef = useRef<HTMLTextAreaElement>(null);

  const { content, type } = draft;
  const markdown = type === 'markdown';
  const canCreate =
    session.type === 'admin' || (session.type === 'apikey' && hasPermission(session.permissions, Permission.TEXT));
  const bytes = useMemo(() => utf8Length(content), [content]);
  const optionErrors = validateShareOptions(options);
  const visibleOptionErrors = showErrors ? optionErrors : {};
  const contentProblem = contentError(content);
  const shownContentError = contentTouched || showErrors ? contentProblem : undefined;

  const setContent = (next: string) => setDraft((d) => ({ ...d, content: next }));
  const hideResult = useCallback(() => setCreated(null), []);

  async function renderedHtml(): Promise<string> {
    if (!markdown) {
      const escaped = content.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
      return `<pre>${escaped}</pre>`;
    }
    return markdownToSafeHtml(content);
  }

  async function copyAs(kind: 'markdown' | 'html' | 'text') {
    if (!content.trim()) {
      toast.error(t('paste.home.nothingToCopy'));
      return;
    }
    let text = content;
    if (kind === 'html') text = markdown ? htmlForCopy(await renderedHtml()) : await renderedHtml();
    else if (kind === 'text' && markdown) text = htmlToPlainText(await markdownToSafeHtml(content));
    if (await copyText(text)) toast.success(t(`paste.home.copied.${kind}`));
    else toast.error(t('common.copyFailed'));
  }

  async function exportAs(kind: 'docx' | 'png') {
    if (!content.trim()) {
      toast.error(t('paste.home.nothingToExport'));
      return;
    }
    setExporting(kind);
    const name = exportBaseName(content);
    try {
      if (kind === 'docx') {
        const { htmlToDocx, textToDocx } = await import('./export/docx');
        const blob = markdown
          ? await htmlToDocx(await markdownToSafeHtml(content), name, { diagramLabel: t('paste.markdown.diagram') })
          : await textToDocx(content, name);
        downloadBlob(blob, `${name}.docx`);
      } else {
        const { elementToPng } = await import('./export/png');
        let source = document.getElementById(PREVIEW_ID);
        let temp: HTMLElement | null = null;
        if (!markdown || !source) {
          temp = document.createElement('pre');
          temp.className = 'md-plain-export';
          temp.style.cssText =
            'margin:0;white-space:pre-wrap;word-break:break-word;font:14px/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:inherit;';
          temp.textContent = content;
          source = temp;
        }
        const dark = getResolvedTheme() === 'dark';
        const background = getComputedStyle(document.body).backgroundColor || (dark ? '#111' : '#fff');
        const blob = await elementToPng(source, { background });
        downloadBlob(blob, `${name}.png`);
      }
      toast.success(t('paste.home.exported'));
    } catch (error) {
      toast.error(t('paste.home.exportFailed', { message: errorMessage(error) }));
    } finally {
      setExporting(null);
    }
  }

  async function onImport(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > PASTE_MAX_BYTES) {
      toast.error(t('paste.home.importTooLarge', { name: file.name }));
      return;
    }
    try {
      const text = await file.text();
      if (text.includes('\u0000')) {
        toast.error(t('paste.home.importNotText', { name: file.name }));
        return;
      }
      const next: Draft = { content: text, type: MD_EXTENSIONS.test(file.name) ? 'markdown' : type };
      // Like Clear: text in the editor is never replaced without asking.
      if (content.trim()) setPendingImport({ name: file.name, draft: next });
      else applyImport(file.name, next);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  /**
   * Puts an imported file into the editor as one undoable step: Ctrl/⌘+Z in the editor brings the previous
   * text back, and so does the toast's Undo (the mode too).
   */
  function applyImport(name: string, next: Draft) {
    const previous = draft;
    const editor = editorRef.current;
    if (!editor || !replaceUndoably(editor, next.content)) setDraft(next);
    else setDraft((d) => ({ ...d, content: next.content, type: next.type }));
    setContentTouched(false);
    toast.success(t('paste.home.imported', { name }), {
      action: {
        label: t('paste.home.importUndo'),
        onClick: () => {
          setDraft(previous);
          toast.success(t('paste.home.importUndone'));
        },
      },
    });
  }

  async function submit() {
    setShowErrors(true);
    setContentTouched(true);
    if (contentProblem) {
      toast.error(t(`paste.errors.${contentProblem}`));
      editorRef.current?.focus();
      return;
    }
    if (Object.keys(optionErrors).length > 0) return;
    setSubmitting(true);
    try {
      if (options.encrypted) {
        // The crypto code loads only now: Home stays as small as before for everyone else.
        const { createEncryptedPaste } = await import('../pastes/encryptedPaste');
        const { created: paste, key } = await createEncryptedPaste(content, type, options);
        setCreated({ paste, key });
      } else {
        setCreated({ paste: await createPaste(toCreateInput(content, type, options)) });
      }
      setOptions((o) => ({ ...o, slug: '', password: '' }));
      setShowErrors(false);
      toast.success(t('paste.home.created'));
    } catch (error) {
      if (isQueuedOffline(error)) {
        setOptions((o) => ({ ...o, password: '' }));
        toast(t('pwa.queuedPaste'), { duration: 6000 });
      } else if (!(isApiError(error) && error.loggedOut)) {
        const message =
          isApiError(error) && error.kind === 'payload_too_large'
            ? t('paste.errors.contentTooLarge')
            : errorMessage(error);
        toast.error(message);
      }
    } finally {
      setSubmitting(false);
    }
  }

  const modeOptions = [
    { value: 'markdown' as const, label: t('paste.home.modeMarkdown') },
    { value: 'text' as const, label: t('paste.home.modeText') },
  ];

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-5">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('paste.home.title')}</h1>
        <p className="text-sm text-muted-foreground sm:text-[15px]">{t('paste.home.subtitle')}</p>
      </div>

      {!canCreate && (
        <Alert tone="warning" title={t('paste.home.loginTitle')}>
          <p>{session.type === 'apikey' ? t('paste.home.keyNoTextPermission') : t('paste.home.loginBody')}</p>
          {session.type === 'none' && (
            <Link to="/admin" className={cn(buttonClasses('secondary', 'sm'), 'mt-2')}>
              <LogIn className="size-4" aria-hidden="true" />
              {t('paste.home.loginAction')}
            </Link>
          )}
        </Alert>
      )}

      <section className="flex flex-col overflow-hidden rounded-xl border border-border bg-surface shadow-sm">
        <div className="flex flex-wrap items-center gap-2 border-b border-border px-3 py-2.5 sm:px-4">
          <ChoiceChips
            value={type}
            onChange={(next) => setDraft((d) => ({ ...d, type: next }))}
            options={modeOptions}
            label={t('paste.home.mode')}
          />
          <div className="grid w-full grid-cols-4 gap-1 sm:ms-auto sm:flex sm:w-auto sm:items-center [&>button]:max-sm:gap-1 [&>button]:max-sm:px-1">
            <input
              ref={fileInput}
              type="file"
              className="hidden"
              accept=".md,.markdown,.mdown,.mkd,.txt,.text,.log,.csv,.json,.yaml,.yml,.xml,.html,text/*"
              onChange={(event) => void onImport(event)}
              data-testid="import-file"
            />
            <Button variant="ghost" size="sm" onClick={() => fileInput.current?.click()}>
              <FileUp className="size-4" aria-hidden="true" />
              <span>{t('paste.home.import')}</span>
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => (content ? setConfirmClear(true) : undefined)}
              disabled={!content}
            >
              <Eraser className="size-4" aria-hidden="true" />
              <span>{t('paste.home.clear')}</span>
            </Button>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="sm">
                  <ClipboardCopy className="size-4" aria-hidden="true" />
                  <span>{t('paste.home.copy')}</span>
                  <ChevronDown className="size-3.5 opacity-60 max-sm:hidden" aria-hidden="true" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent>
                <DropdownMenuItem onSelect={() => void copyAs('markdown')}>
                  <FileText />
                  {t('paste.home.copyMarkdown')}
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void copyAs('html')}>
                  <FileType />
                  {t('paste.home.copyHtml')}
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void copyAs('text')}>
                  <FileText />
                  {t('paste.home.copyText')}
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="sm" loading={exporting !== null}>
                  <FileDown className="size-4" aria-hidden="true" />
                  <span>{t('paste.home.export')}</span>
                  <ChevronDown className="size-3.5 opacity-60 max-sm:hidden" aria-hidden="true" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent>
                <DropdownMenuItem onSelect={() => void exportAs('docx')}>
                  <FileType />
                  {t('paste.home.exportWord')}
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void exportAs('png')}>
                  <FileImage />
                  {t('paste.home.exportPng')}
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
        </div>

        {markdown && (
          <Tabs
            value={pane}
            onValueChange={(v) => setPane(v as 'edit' | 'preview')}
            className="border-b border-border px-3 py-2 lg:hidden"
          >
            <TabsList aria-label={t('paste.home.panes')}>
              {/* The panes are plain regions (both show side by side on wide screens): point the tabs at them. */}
              <TabsTrigger value="edit" aria-controls="paste-pane-edit">
                <Pencil aria-hidden="true" />
                {t('paste.home.edit')}
              </TabsTrigger>
              <TabsTrigger value="preview" aria-controls="paste-pane-preview">
                <Eye aria-hidden="true" />
                {t('paste.home.preview')}
              </TabsTrigger>
            </TabsList>
          </Tabs>
        )}

        <div className={cn('grid min-h-[22rem]', markdown && 'lg:grid-cols-2')}>
          <div
            id="paste-pane-edit"
            className={cn('flex min-w-0 flex-col', markdown && pane !== 'edit' && 'max-lg:hidden')}
          >
            <label htmlFor="paste-editor" className="sr-only">
              {t('paste.home.editorLabel')}
            </label>
            <Textarea
              id="paste-editor"
              ref={editorRef}
              value={content}
              onChange={(event) => setContent(event.target.value)}
              onBlur={() => setContentTouched(true)}
              placeholder={markdown ? t('paste.home.placeholderMarkdown') : t('paste.home.placeholderText')}
              spellCheck={false}
              aria-invalid={shownContentError ? true : undefined}
              aria-describedby="paste-editor-status"
              className="h-[min(62dvh,40rem)] min-h-[18rem] flex-1 resize-y rounded-none border-0 bg-transparent p-4 font-mono text-[13.5px] leading-relaxed focus-visible:outline-none focus-visible:ring-0 aria-[invalid=true]:border-0 sm:p-5"
            />
            <div
              id="paste-editor-status"
              className="flex items-center justify-between gap-2 border-t border-border px-4 py-1.5 text-xs text-muted-foreground"
            >
              <span className={shownContentError ? 'font-medium text-destructive-soft-foreground' : undefined}>
                {shownContentError ? t(`paste.errors.${shownContentError}`) : t('paste.home.draftSaved')}
              </span>
              <span className={bytes > PASTE_MAX_BYTES ? 'text-destructive-soft-foreground' : undefined}>
                {t('paste.home.stats', {
                  chars: formatNumber(content.length, i18n.language),
                  size: formatBytes(bytes, i18n.language),
                })}
              </span>
            </div>
          </div>
          {markdown && (
            <div
              id="paste-pane-preview"
              className={cn(
                'min-w-0 border-border bg-background/40 lg:border-s',
                pane !== 'preview' && 'max-lg:hidden',
              )}
            >
              <div
                className="h-full max-h-[min(70dvh,44rem)] overflow-auto p-4 sm:p-6"
                aria-label={t('paste.home.preview')}
                role="region"
              >
                {previewShown && (
                  <MarkdownView
                    id={PREVIEW_ID}
                    source={content}
                    debounceMs={180}
                    emptyText={t('paste.home.previewEmpty')}
                  />
                )}
              </div>
            </div>
          )}
        </div>
      </section>

      <section
        aria-labelledby="share-options-title"
        className="rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-5"
      >
        <h2 id="share-options-title" className="mb-4 flex items-center gap-2 text-base font-semibold">
          <Link2 className="size-4 text-muted-foreground" aria-hidden="true" />
          {t('paste.share.title')}
        </h2>
        <ShareOptionsFields value={options} onChange={setOptions} errors={visibleOptionErrors} />
        <div className="mt-5 flex flex-col-reverse gap-3 border-t border-border pt-4 sm:flex-row sm:items-center sm:justify-end">
          {!canCreate && <p className="text-sm text-muted-foreground sm:me-auto">{t('paste.home.loginToShare')}</p>}
          <Button
            size="lg"
            onClick={() => void submit()}
            loading={submitting}
            disabled={!canCreate}
            className="w-full sm:w-auto"
          >
            <Link2 className="size-4" aria-hidden="true" />
            {submitting ? t('paste.home.creating') : t('paste.home.create')}
          </Button>
        </div>
      </section>

      {created && <ShareResult created={created.paste} linkKey={created.key} onHide={hideResult} />}

      <ConfirmDialog
        open={pendingImport !== null}
        onOpenChange={(open) => !open && setPendingImport(null)}
        title={t('paste.home.importTitle', { name: pendingImport?.name ?? '' })}
        description={t('paste.home.importBody')}
        confirmLabel={t('paste.home.importReplace')}
        onConfirm={() => {
          const chosen = pendingImport;
          setPendingImport(null);
          // After the dialog has closed and handed the focus back: the editor can take it for the undoable write.
          if (chosen) window.setTimeout(() => applyImport(chosen.name, chosen.draft), 50);
        }}
      />
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title={t('paste.home.clearTitle')}
        description={t('paste.home.clearBody')}
        confirmLabel={t('paste.home.clear')}
        onConfirm={() => {
          setContent('');
          setConfirmClear(false);
          setContentTouched(false);
          editorRef.current?.focus();
        }}
      />
    </div>
  );
}
