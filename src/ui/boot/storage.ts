import { sanitiseSettings, type Settings } from '../../machines/settings.machine';

/**
 * Browser storage. The token lives in local storage when "remember me" is on; otherwise in a
 * session cookie, which every tab of the browser shares and which goes when the browser closes
 * (session storage would hold it for one tab only, so a second tab was signed out). The server
 * never reads that cookie: every call still sends the token as a bearer header. Settings are
 * remembered in local storage.
 */
export const TOKEN_KEY = 'kingdom.token';
const SESSION_COOKIE = 'kingdom_session';
const SETTINGS_KEY = 'kingdom.settings';

function readSessionCookie(): string | null {
  const prefix = `${SESSION_COOKIE}=`;
  const found = document.cookie.split('; ').find((c) => c.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) || null : null;
}

function writeSessionCookie(token: string | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // no max-age or expires: a session cookie, gone when the browser closes
  document.cookie =
    token === null
      ? `${SESSION_COOKIE}=; max-age=0; path=/; SameSite=Strict${secure}`
      : `${SESSION_COOKIE}=${encodeURIComponent(token)}; path=/; SameSite=Strict${secure}`;
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback; // storage can be disabled (private mode, policies)
  }
}

export function readToken(): string | null {
  return safe(() => localStorage.getItem(TOKEN_KEY), null) ?? safe(readSessionCookie, null);
}

export function storeToken(token: string, remember: boolean): void {
  clearToken();
  if (remember) safe(() => localStorage.setItem(TOKEN_KEY, token), undefined);
  else safe(() => writeSessionCookie(token), undefined);
}

export function clearToken(): void {
  safe(() => localStorage.removeItem(TOKEN_KEY), undefined);
  safe(() => sessionStorage.removeItem(TOKEN_KEY), undefined); // where earlier versions kept it
  safe(() => writeSessionCookie(null), undefined);
}

export function readSettings(): Partial<Settings> {
  return safe(() => sanitiseSettings(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}')), {});
}

export function storeSettings(settings: Settings): void {
  safe(() => localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)), undefined);
}

const PICKED_LOCALE_KEY = 'kingdom.locale.picked';

/** A language picked while signed out (the sign-in page's picker): the next sign-in makes it the account's. */
export function rememberPickedLocale(locale: string): void {
  safe(() => sessionStorage.setItem(PICKED_LOCALE_KEY, locale), undefined);
}

/** The language picked while signed out, if one was (kept until a sign-in succeeds). */
export function pickedLocale(): string | null {
  return safe(() => sessionStorage.getItem(PICKED_LOCALE_KEY), null);
}

export function forgetPickedLocale(): void {
  safe(() => sessionStorage.removeItem(PICKED_LOCALE_KEY), undefined);
}
