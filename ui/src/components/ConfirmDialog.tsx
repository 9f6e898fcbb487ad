import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Gives focus back to what opened a dialog or form, or to the page's heading when that is gone,
 * without scrolling: what the dialog's action changed may have been brought into view meanwhile.
 */
export function returnFocus(opener: Element | null | undefined): void {
  const target =
    opener instanceof HTMLElement && opener.isConnected && !opener.matches(':disabled')
      ? opener
      : document.querySelector<HTMLElement>('main h1');
  target?.focus({ preventScroll: true });
}

/** Keeps Tab and Shift+Tab inside `container`, wrapping from its last control to its first. */
export function trapTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (controls.length === 0) return;
  const first = controls[0]!;
  const last = controls[controls.length - 1]!;
  const active = document.activeElement;
  const outside = !controls.includes(active as HTMLElement);
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal question: the browser's own <dialog> closes on Escape; Tab stays inside while it is
 * open, and focus returns to the control that opened it. It opens on Cancel, or on Confirm with
 * `focusConfirm` (a save whose preview is shown): never on a link of its content, which Enter
 * would follow, leaving the page and what was typed on it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
  focusConfirm = false,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Without it the dialog only informs: it offers Cancel alone. */
  onConfirm?: () => void;
  onCancel: () => void;
  busy?: boolean;
  focusConfirm?: boolean;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement;
      element.showModal();
      (focusConfirm && confirm.current ? confirm.current : cancel.current)?.focus();
    } else if (!open && element.open) {
      element.close();
      returnFocus(opener.current);
    }
  }, [open, focusConfirm]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => (event.preventDefault(), onCancel())}
      onKeyDown={trapTab}
    >
      <h2 id={titleId}>{title}</h2>
      <div>{children}</div>
      <div className="actions">
        <button type="button" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
        {onConfirm && (
          <button type="button" ref={confirm} className="danger" onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        )}
      </div>
    </dialog>
  );
}
