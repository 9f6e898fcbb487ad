import { useEffect } from 'react';

export const LEAVE_QUESTION = 'Leave this page? What you typed in its form is not saved.';

/**
 * While `dirty`, following a link away from the page asks first; Cancel keeps the page and what
 * was typed. (The router in use has no blocking of its own; links within the page, as the skip
 * link, are let through.)
 */
export function useAskBeforeLeaving(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return undefined;
    const click = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.getAttribute('href')?.startsWith('#')) return;
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey ||
        link.target === '_blank'
      )
        return;
      if (!window.confirm(LEAVE_QUESTION)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    // In the capture phase, before the router's own handler follows the link.
    document.addEventListener('click', click, true);
    return () => document.removeEventListener('click', click, true);
  }, [dirty]);
}
