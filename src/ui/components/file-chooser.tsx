import type { ReactNode } from 'react';
import type { FilePreview } from '../lib/use-file-preview';
import { cn } from '../lib/cn';
import { Button } from './button';

/** The button that opens the file dialog (the input itself is hidden), and the chosen file's name or `noFile`. */
export function FileChooser<P>({
  file,
  accept,
  label,
  noFile,
  disabled,
  nameClassName,
}: {
  file: FilePreview<P>;
  accept: string;
  label: ReactNode;
  noFile: ReactNode;
  disabled?: boolean;
  nameClassName?: string;
}) {
  return (
    <>
      <Button variant="outline" onClick={() => file.input.current?.click()} disabled={disabled ?? file.preview.isPending}>
        {label}
      </Button>
      <input ref={file.input} type="file" accept={accept} className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(e) => file.choose(e.target.files?.[0])} />
      <span dir="auto" className={cn('min-w-0 truncate text-sm text-muted-foreground', nameClassName)}>
        {file.fileName ?? noFile}
      </span>
    </>
  );
}
