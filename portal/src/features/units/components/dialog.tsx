import { type ReactNode, useEffect, useRef } from 'react';

/** A modal dialog on the native <dialog>: focus trap, Escape and the backdrop come with it. */
export function Dialog({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop is a pointer shortcut; the native <dialog> closes on Escape
    <dialog ref={ref} className="dialog" aria-label={title} onClose={onClose} onClick={(event) => event.target === ref.current && onClose()}>
      <div className="dialog-body">
        <header className="dialog-header">
          <h2>{title}</h2>
          <button type="button" className="dialog-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {children}
      </div>
    </dialog>
  );
}
