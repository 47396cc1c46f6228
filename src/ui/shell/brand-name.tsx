import { FormattedMessage } from 'react-intl';

/**
 * The brand's words: the kingdom's own name with the word "kingdom" in the reader's language under
 * it, or the app's name while the kingdom has none. The sidebar and the public pages share it.
 */
export function BrandName({ kingdomName }: { kingdomName: string }) {
  if (!kingdomName) return <FormattedMessage id="app.name" />;
  return (
    <span className="flex min-w-0 flex-col leading-tight">
      <bdi className="truncate" dir="auto" title={kingdomName}>
        {kingdomName}
      </bdi>
      <span className="text-xs font-medium text-muted-foreground">
        <FormattedMessage id="brand.kingdom" />
      </span>
    </span>
  );
}
