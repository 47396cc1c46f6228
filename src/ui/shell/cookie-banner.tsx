import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../components/button';

/** Bottom banner, the consent remembered for 150 days. */
const COOKIE = 'kingdom_cookie_consent';
const MAX_AGE_S = 150 * 24 * 60 * 60;

function consented(): boolean {
  return document.cookie.split('; ').some((c) => c === `${COOKIE}=1`);
}

/**
 * While the banner shows, --cookie-banner-height holds its height, so pages keep their last lines
 * (the public pages' links, the footer) above it instead of under it.
 */
const HEIGHT_VAR = '--cookie-banner-height';

export function CookieBanner() {
  const intl = useIntl();
  const [visible, setVisible] = useState(() => !consented());
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = banner.current;
    if (!visible || !element) return;
    const root = document.documentElement;
    const measure = () => root.style.setProperty(HEIGHT_VAR, `${element.offsetHeight}px`);
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(HEIGHT_VAR);
    };
  }, [visible]);
  if (!visible) return null;
  return (
    <div ref={banner} role="region" aria-label={intl.formatMessage({ id: 'cookie.region' })} className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-card/95 px-4 py-3 shadow-lg backdrop-blur">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3">
        <p className="text-sm">
          <FormattedMessage id="cookie.text" />
        </p>
        <Button
          size="sm"
          onClick={() => {
            document.cookie = `${COOKIE}=1; max-age=${MAX_AGE_S}; path=/; SameSite=Lax`;
            setVisible(false);
          }}
        >
          <FormattedMessage id="cookie.accept" />
        </Button>
      </div>
    </div>
  );
}
