import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { createKingdomNameApi } from '../../../api/kingdom-name';
import { useApi } from '../../lib/use-api';
import { LanguagePicker } from '../../shell/language-picker';
import { BrandName } from '../../shell/brand-name';

/** The kingdom's own name, read once without signing in (empty until leadership sets one, or if the read fails). */
function usePublicKingdomName(): string {
  const kingdom = useApi(createKingdomNameApi);
  const [name, setName] = useState('');
  useEffect(() => {
    let live = true;
    kingdom.publicName().then(
      (n) => live && setName(n),
      () => undefined, // the app's name stays: the form works without it
    );
    return () => {
      live = false;
    };
  }, [kingdom]);
  return name;
}

/** The public pages' frame: a centred card with the language switcher. */
export function AuthLayout({ titleId, subtitleId, children }: { titleId: string; subtitleId: string; children: ReactNode }) {
  const kingdomName = usePublicKingdomName();
  return (
    // centred in the space above the cookie banner while it shows (body keeps room for it below)
    <div className="flex min-h-[calc(100vh-var(--cookie-banner-height,0px))] flex-col items-center justify-center px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-6 flex items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-2 text-xl font-bold" data-testid="brand">
            <svg viewBox="0 0 32 32" className="h-7 w-7 shrink-0 text-primary" aria-hidden="true">
              <path fill="currentColor" d="M4 26h24l-2-14-6 5-4-9-4 9-6-5z" />
            </svg>
            <BrandName kingdomName={kingdomName} />
          </div>
          <LanguagePicker />
        </div>
        <div className="rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-semibold">
            <FormattedMessage id={titleId} />
          </h1>
          <p className="mb-6 mt-1 text-sm text-muted-foreground">
            <FormattedMessage id={subtitleId} />
          </p>
          {children}
        </div>
      </div>
    </div>
  );
}

/** The line under a public form that leads to the other one ("Don't have an account? Sign Up"). */
export function AuthSwitch({ questionId, linkId, href }: { questionId: string; linkId: string; href: string }) {
  return (
    <p className="text-center text-sm text-muted-foreground">
      <FormattedMessage id={questionId} />{' '}
      <Link href={href} className="font-medium text-primary hover:underline">
        <FormattedMessage id={linkId} />
      </Link>
    </p>
  );
}
