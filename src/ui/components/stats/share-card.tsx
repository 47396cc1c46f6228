import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { cardsKeys, createCardsApi } from '../../../api/cards';
import { cardPath } from '../../../protocol/cards';
import { useChild } from '../../app-context';
import { useApi } from '../../lib/use-api';
import { Button, type buttonVariants } from '../button';
import { Dialog, DialogBody, DialogContent, DialogHeader, DialogTrigger } from '../dialog';
import { QueryError } from '../query-error';
import type { VariantProps } from 'class-variance-authority';

export type CardSpec = Parameters<typeof cardPath>[0];

/** The card's path in the reader's language and theme (the settings actor's). */
function useCardPath(card: CardSpec): string {
  const settings = useSelector(useChild('settings'), (s) => ({ locale: s.context.locale, theme: s.context.theme }), (a, b) => a.locale === b.locale && a.theme === b.theme);
  const path = cardPath(card);
  return `${path}${path.includes('?') ? '&' : '?'}lang=${settings.locale}&theme=${settings.theme}`;
}

/** A phone's share sheet can take files: then "Share" offers it. */
function canShareFiles(file: File): boolean {
  return typeof navigator.share === 'function' && typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] });
}

/**
 * "Share card": a dialog with the server-drawn image of a governor, KvK standings or a sale, to
 * download, copy as an image, copy as a link (a share link anyone may open for 30 days) or, on a
 * phone, hand to the system's share sheet.
 */
export function ShareCardButton({ card, label, variant = 'outline' }: { card: CardSpec; label?: string; variant?: VariantProps<typeof buttonVariants>['variant'] }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const name = label ?? intl.formatMessage({ id: 'cards.share' });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={variant} size="sm">
          {name}
        </Button>
      </DialogTrigger>
      {open && <ShareCardDialog card={card} title={name} />}
    </Dialog>
  );
}

function ShareCardDialog({ card, title }: { card: CardSpec; title: string }) {
  const intl = useIntl();
  const cards = useApi(createCardsApi);
  const path = useCardPath(card);
  const image = useQuery({ queryKey: cardsKeys.image(path), queryFn: () => cards.image(path), staleTime: 60_000 });
  const [url, setUrl] = useState<string | null>(null);
  const [said, setSaid] = useState<{ text: string; error?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!image.data) return;
    const made = URL.createObjectURL(image.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [image.data]);

  const fileName = `${path.slice(1).replace(/\.png.*$/, '').replace(/[^\w]+/g, '-')}.png`;
  const file = image.data ? new File([image.data], fileName, { type: 'image/png' }) : null;
  const alt = intl.formatMessage({ id: 'cards.alt' });

  async function run(job: () => Promise<string>) {
    setBusy(true);
    try {
      setSaid({ text: await job() });
    } catch (error) {
      setSaid({ text: error instanceof Error && error.message ? error.message : intl.formatMessage({ id: 'cards.copyFailed' }), error: true });
    } finally {
      setBusy(false);
    }
  }

  const copyImage = () =>
    run(async () => {
      if (!image.data || typeof ClipboardItem === 'undefined') throw new Error(intl.formatMessage({ id: 'cards.copyFailed' }));
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': image.data })]);
      return intl.formatMessage({ id: 'cards.copiedImage' });
    });
  const copyLink = () =>
    run(async () => {
      const link = await cards.share(path);
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        return intl.formatMessage({ id: 'cards.linkMade' }, { url: link });
      }
      return intl.formatMessage({ id: 'cards.copiedLink' }, { url: link });
    });
  const share = () =>
    run(async () => {
      if (file) await navigator.share({ files: [file], title });
      return '';
    });

  return (
    <DialogContent>
      <DialogHeader description={intl.formatMessage({ id: 'cards.description' })}>{title}</DialogHeader>
      <DialogBody className="grid gap-4">
        <QueryError error={image.error} />
        {image.isFetching && !url && (
          <p className="text-sm text-muted-foreground" role="status">
            <FormattedMessage id="cards.drawing" />
          </p>
        )}
        {url && <img src={url} alt={alt} width={1200} height={675} className="h-auto w-full rounded-md border border-border" />}
        <div className="flex flex-wrap gap-2">
          {url && (
            <Button asChild size="sm">
              <a href={url} download={fileName}>
                <FormattedMessage id="cards.download" />
              </a>
            </Button>
          )}
          <Button size="sm" variant="outline" disabled={!image.data || busy} onClick={() => void copyImage()}>
            <FormattedMessage id="cards.copyImage" />
          </Button>
          <Button size="sm" variant="outline" disabled={!image.data || busy} onClick={() => void copyLink()}>
            <FormattedMessage id="cards.copyLink" />
          </Button>
          {file && canShareFiles(file) && (
            <Button size="sm" variant="outline" disabled={busy} onClick={() => void share()}>
              <FormattedMessage id="cards.shareSheet" />
            </Button>
          )}
        </div>
        <p role="status" aria-live="polite" className={said?.error ? 'text-sm text-danger' : 'text-sm text-muted-foreground wrap-anywhere'}>
          {said?.text}
        </p>
      </DialogBody>
    </DialogContent>
  );
}
