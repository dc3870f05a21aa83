import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { IconButton } from './icon-button';
import { Input } from './input';

/** A password field with a show/hide toggle (share options, the paste and file password prompts). */
export function PasswordInput({
  id,
  value,
  onChange,
  placeholder,
  invalid,
  describedBy,
  autoComplete = 'new-password',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
  autoComplete?: string;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <Input
        id={id}
        type={shown ? 'text' : 'password'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoComplete={autoComplete}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className="pe-11"
      />
      <IconButton
        label={shown ? t('login.hidePassword') : t('login.showPassword')}
        size="icon-sm"
        className="absolute end-0.5 top-1/2 -translate-y-1/2 text-muted-foreground"
        onClick={() => setShown((s) => !s)}
      >
        {shown ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
      </IconButton>
    </div>
  );
}
