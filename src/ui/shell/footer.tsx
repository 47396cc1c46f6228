import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

/**
 * The product's and the game's names are isolated and kept on one line: inside an Arabic sentence
 * they keep their own word order and never break across lines ("Rise of" … "Kingdoms").
 */
const name = (chunks: ReactNode[]) => <bdi className="whitespace-nowrap">{chunks}</bdi>;

export function Footer() {
  return (
    <footer className="border-t border-border px-6 py-4 text-center text-xs text-muted-foreground">
      <FormattedMessage id="footer.credit" values={{ app: name, game: name }} />
    </footer>
  );
}
