// Toasts and the confirm/prompt dialogs, rendered once by the shell.
import { reactive } from 'vue';

export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

export const toasts = reactive<Toast[]>([]);
let seq = 0;

/** Shows a message for a few seconds; a new one replaces the one before, so toasts never pile up over the page. */
export function toast(text: string, kind: Toast['kind'] = 'info'): void {
  const id = ++seq;
  toasts.splice(0, toasts.length, { id, text, kind });
  setTimeout(
    () => {
      const i = toasts.findIndex((t) => t.id === id);
      if (i >= 0) toasts.splice(i, 1);
    },
    kind === 'error' ? 6000 : 3000,
  );
}

export interface AskState {
  open: boolean;
  title: string;
  message: string;
  /** null: a confirmation; a string: a prompt with this initial value */
  value: string | null;
  label: string;
  okLabel: string;
  danger: boolean;
  maxlength: number;
  resolve: (v: string | boolean | null) => void;
}

export const ask = reactive<AskState>({
  open: false,
  title: '',
  message: '',
  value: null,
  label: '',
  okLabel: '',
  danger: false,
  maxlength: 100,
  resolve: () => {},
});

export function confirmAction(title: string, message: string, okLabel: string, danger = true): Promise<boolean> {
  return new Promise((resolve) => {
    Object.assign(ask, {
      open: true,
      title,
      message,
      value: null,
      label: '',
      okLabel,
      danger,
      resolve: (v: string | boolean | null) => resolve(v === true),
    });
  });
}

export function promptText(
  title: string,
  label: string,
  value: string,
  okLabel: string,
  maxlength = 30,
  message = '',
): Promise<string | null> {
  return new Promise((resolve) => {
    Object.assign(ask, {
      open: true,
      title,
      message,
      value,
      label,
      okLabel,
      danger: false,
      maxlength,
      resolve: (v: string | boolean | null) => resolve(typeof v === 'string' ? v : null),
    });
  });
}
