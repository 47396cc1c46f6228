import { sanitiseSettings, type Settings } from '../../machines/settings.machine';

/**
 * Browser storage. The token lives in local storage when "remember me" is on, otherwise in
 * session storage (gone when the browser closes). Settings are remembered in local storage.
 */
export const TOKEN_KEY = 'kingdom.token';
const SETTINGS_KEY = 'kingdom.settings';

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback; // storage can be disabled (private mode, policies)
  }
}

export function readToken(): string | null {
  return safe(() => localStorage.getItem(TOKEN_KEY) ?? sessionStorage.getItem(TOKEN_KEY), null);
}

export function storeToken(token: string, remember: boolean): void {
  safe(() => {
    clearToken();
    (remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, token);
  }, undefined);
}

export function clearToken(): void {
  safe(() => {
    localStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(TOKEN_KEY);
  }, undefined);
}

export function readSettings(): Partial<Settings> {
  return safe(() => sanitiseSettings(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}')), {});
}

export function storeSettings(settings: Settings): void {
  safe(() => localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)), undefined);
}
