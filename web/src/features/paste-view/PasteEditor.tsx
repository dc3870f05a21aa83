import type { PasteType, PasteView } from '@clipnest/contract';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Textarea } from '../../components/ui/input';
import { errorMessage, isApiError } from '../../lib/api';
import { contentError } from '../pastes/shareForm';
import { updatePaste } from '../pastes/api';

/** The owner's in-place editor; loaded when editing starts, so visitors never download it. */
export default function InlineEditor({
  paste,
  onSaved,
  onCancel,
}: {
  paste: PasteView;
  onSaved: (content: string, type: PasteType) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [content, setContent] = useState(paste.content);
  const [type, setType] = useState<PasteType>(paste.type);
  const [saving, setSaving] = useState(false);
  const problem = contentError(content);

  async function save() {
    if (problem || !paste.id) return;
    setSaving(true);
    try {
      await updatePaste(paste.id, { content, type });
      toast.success(t('paste.view.saved'));
      onSaved(content, type);
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <ChoiceChips
        value={type}
        onChange={setType}
        label={t('paste.home.mode')}
        options={[
          { value: 'markdown', label: t('paste.home.modeMarkdown') },
          { value: 'text', label: t('paste.home.modeText') },
        ]}
      />
      <label htmlFor="paste-inline-editor" className="sr-only">
        {t('paste.home.editorLabel')}
      </label>
      <Textarea
        id="paste-inline-editor"
        value={content}
        onChange={(event) => setContent(event.target.value)}
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        className="min-h-[24rem] font-mono text-[13.5px] leading-relaxed"
      />
      {problem && (
        <p role="alert" className="text-xs font-medium text-destructive-soft-foreground">
          {t(`paste.errors.${problem}`)}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          <X className="size-4" aria-hidden="true" />
          {t('common.cancel')}
        </Button>
        <Button onClick={() => void save()} loading={saving} disabled={!!problem}>
          <Check className="size-4" aria-hidden="true" />
          {t('common.save')}
        </Button>
      </div>
    </div>
  );
}
