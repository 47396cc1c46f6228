import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/button';
import { Input } from '../../../components/input';
import { Label } from '../../../components/label';
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES, createStoreOfficeApi } from '../../../../api/store-office';
import { assetUrl } from '../../../lib/back-office';
import { useApi } from '../../../lib/use-api';
import { useServerText } from '../../../lib/server-text';

/** Upload an image (POST store/uploads): type and size checked here first, then by the server. */
export function ImageField({ value, error, onChange }: { value: string; error?: string; onChange: (url: string) => void }) {
  const intl = useIntl();
  const storeOffice = useApi(createStoreOfficeApi);
  const input = useRef<HTMLInputElement>(null);
  const say = useServerText();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => storeOffice.upload(file),
    onSuccess: (url) => onChange(url),
    onError: (e) => setProblem((e as Error).message),
  });
  function choose(file: File | undefined) {
    setProblem(null);
    if (!file) return;
    if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) return setProblem(intl.formatMessage({ id: 'manage.upload.type' }));
    if (file.size > UPLOAD_MAX_BYTES) return setProblem(intl.formatMessage({ id: 'manage.upload.size' }, { size: file.size / (1024 * 1024) }));
    upload.mutate(file);
  }
  const shown = problem ?? error;
  // an address that shows no image: a placeholder of the preview's size (never the alt text spilling out) and a word why
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  const broken = !!value && brokenUrl === value;
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor="item-imageUrl">
        <FormattedMessage id="manage.imageUrl" />
      </Label>
      <div className="flex gap-3">
        {value && broken ? (
          <span
            role="img"
            aria-label={intl.formatMessage({ id: 'manage.upload.broken' })}
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md border border-danger/50 bg-danger/5 text-danger"
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 5h16v14H4zM4 15l4-4 3 3M14 12l2-2 4 4M3 3l18 18" />
            </svg>
          </span>
        ) : value ? (
          <img
            key={value}
            src={assetUrl(value)}
            alt={intl.formatMessage({ id: 'manage.upload.preview' })}
            className="h-10 w-10 shrink-0 overflow-hidden rounded-md bg-muted object-cover text-[0px]"
            onError={() => setBrokenUrl(value)}
          />
        ) : (
          <span aria-hidden="true" className="h-10 w-10 shrink-0 rounded-md border border-dashed border-border" />
        )}
        <Input
          id="item-imageUrl"
          value={value}
          dir="ltr"
          aria-invalid={!!shown}
          aria-describedby={['item-imageUrl-hint', shown ? 'item-imageUrl-error' : broken ? 'item-imageUrl-broken' : null].filter(Boolean).join(' ')}
          onChange={(e) => onChange(e.target.value)} className="min-w-0" />
        <Button type="button" variant="outline" className="shrink-0" disabled={upload.isPending} onClick={() => input.current?.click()}>
          <FormattedMessage id={upload.isPending ? 'manage.upload.busy' : 'manage.upload'} />
        </Button>
        <input
          ref={input}
          type="file"
          accept={UPLOAD_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            choose(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      <p id="item-imageUrl-hint" className="text-xs text-muted-foreground">
        <FormattedMessage id="manage.upload.hint" />
      </p>
      {broken && !shown && (
        <p id="item-imageUrl-broken" role="alert" className="text-xs text-danger">
          <FormattedMessage id="manage.upload.broken" />
        </p>
      )}
      {shown && (
        <p id="item-imageUrl-error" role="alert" className="text-xs text-danger">
          {say(shown)}
        </p>
      )}
    </div>
  );
}
