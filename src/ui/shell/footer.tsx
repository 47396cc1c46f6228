import { FormattedMessage } from 'react-intl';

export function Footer() {
  return (
    <footer className="border-t border-border px-6 py-4 text-center text-xs text-muted-foreground" data-testid="footer">
      <FormattedMessage id="footer.credit" />
    </footer>
  );
}
