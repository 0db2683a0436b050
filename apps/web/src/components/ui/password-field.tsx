import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { t } from '../../lib/i18n/i18n';
import { TextField, type TextFieldProps } from './text-field';

/** A password input with a show/hide toggle that has an accessible name. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  const Icon = visible ? EyeOff : Eye;
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={t(visible ? 'ui.password.hide' : 'ui.password.show')}
          aria-pressed={visible}
          className="rounded-md p-2 text-slate-500 dark:text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800 hover:text-slate-700 dark:hover:text-slate-100"
        >
          <Icon aria-hidden="true" className="size-4" />
        </button>
      }
    />
  );
}
