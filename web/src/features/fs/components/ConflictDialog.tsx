import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog, DialogContent } from '../../../components/ui/dialog';

export type ConflictChoice = 'replace' | 'keep' | 'skip';

export interface ConflictQuestion {
  /** The name that is taken in the target folder. */
  name: string;
  folder: string;
  /** Conflicts after this one ("do the same for the other N"). */
  remaining: number;
  answer: (choice: ConflictChoice | null, forAll: boolean) => void;
}

/** "“a.txt” already exists in /x": replace it, keep both (the copy gets a free name) or skip, optionally for all. */
export function ConflictDialog({ question }: { question: ConflictQuestion | null }) {
  const { t } = useTranslation();
  const [forAll, setForAll] = useState(false);
  const id = useId();
  const answer = (choice: ConflictChoice | null) => {
    const all = forAll;
    setForAll(false);
    question?.answer(choice, all);
  };
  return (
    <Dialog open={question !== null} onOpenChange={(open) => !open && answer(null)}>
      {question && (
        <DialogContent
          title={t('fs.conflict.title', { name: question.name })}
          footer={
            <div className="flex w-full flex-wrap justify-end gap-2">
              <Button variant="ghost" onClick={() => answer('skip')}>
                {t('fs.conflict.skip')}
              </Button>
              <Button variant="secondary" onClick={() => answer('keep')}>
                {t('fs.conflict.keep')}
              </Button>
              <Button variant="destructive" onClick={() => answer('replace')}>
                {t('fs.conflict.replace')}
              </Button>
            </div>
          }
        >
          <p className="text-sm text-muted-foreground">{t('fs.conflict.body', { folder: question.folder })}</p>
          {question.remaining > 0 && (
            <div className="mt-3 flex items-center gap-2 text-sm">
              <Checkbox id={id} checked={forAll} onCheckedChange={(v) => setForAll(v === true)} />
              <label htmlFor={id}>{t('fs.conflict.forAll', { count: question.remaining })}</label>
            </div>
          )}
        </DialogContent>
      )}
    </Dialog>
  );
}
