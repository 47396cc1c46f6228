import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';

/** Spreadsheets the file imports read. */
export const SPREADSHEET_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A file chosen for a preview: the hidden input, the chosen file's name and the preview's request.
 * Choosing a file (`choose`) starts its preview at once; `clear` forgets the file and the preview
 * (after an apply, or a discard). `FileChooser` (components/file-chooser.tsx) draws the picker.
 */
export function useFilePreview<P>(read: (file: File) => Promise<P>, options: { onChoose?: () => void; onSettled?: () => void } = {}) {
  const input = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const preview = useMutation({ mutationFn: read, onSettled: options.onSettled });
  const clear = () => {
    preview.reset();
    setFileName(null);
    if (input.current) input.current.value = '';
  };
  const choose = (file: File | undefined) => {
    options.onChoose?.();
    preview.reset();
    setFileName(file?.name ?? null);
    if (file) preview.mutate(file);
  };
  return { input, fileName, preview, clear, choose };
}

export type FilePreview<P> = ReturnType<typeof useFilePreview<P>>;
