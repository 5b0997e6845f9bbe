import { useCallback, useEffect, useState } from 'react';

const TOAST_DURATION_MS = 5000;

export interface ToastMessage {
  title: string;
  description: string;
  tone?: 'error' | 'info';
}

/** One toast at a time: a newer one replaces the one showing. */
export function useToast() {
  const [toast, setToast] = useState<ToastMessage | null>(null);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  const dismiss = useCallback(() => setToast(null), []);
  return { toast, show: setToast, dismiss };
}

export function Toast({ toast, onDismiss }: { toast: ToastMessage | null; onDismiss: () => void }) {
  return (
    <div className="toast-viewport" role="status" aria-live="polite">
      {toast && (
        <div className={`toast ${toast.tone === 'error' ? 'toast-error' : ''}`}>
          <div>
            <p className="toast-title">{toast.title}</p>
            <p className="toast-description">{toast.description}</p>
          </div>
          <button type="button" className="toast-close" aria-label="Dismiss" onClick={onDismiss}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
