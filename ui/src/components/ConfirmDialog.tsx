import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal question: the browser's own <dialog> keeps focus inside while it is open and closes on
 * Escape; focus returns to the control that opened it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Without it the dialog only informs: it offers Cancel alone. */
  onConfirm?: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<(Element & Partial<HTMLOrSVGElement>) | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
      opener.current?.focus?.();
    }
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onCancel={(event) => (event.preventDefault(), onCancel())}>
      <h2 id={titleId}>{title}</h2>
      <div>{children}</div>
      <div className="actions">
        <button type="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
        {onConfirm && (
          <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        )}
      </div>
    </dialog>
  );
}
