import { useRef } from 'react';

interface AutoFocusHandlers {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/**
 * Focus goes back where it was when a dialog closes. Radix returns it to a Dialog.Trigger; our
 * dialogs open from state (a row's button, a menu, a keyboard shortcut) with no Trigger, and focus
 * fell to <body>, so the next Tab started over at the top of the page. The element focused when
 * the dialog opened is kept and focused again on close, if it is still on the page.
 */
export function useReturnFocus(props: AutoFocusHandlers): Required<AutoFocusHandlers> {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event) => {
      opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
      props.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event) => {
      props.onCloseAutoFocus?.(event);
      if (event.defaultPrevented || !opener.current?.isConnected) return;
      event.preventDefault();
      opener.current.focus();
      opener.current = null;
    },
  };
}
