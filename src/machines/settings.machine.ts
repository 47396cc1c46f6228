import { assign, setup } from 'xstate';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../protocol/locales';

/**
 * Display settings: theme, colour, nav style, layout type and locale, with the
 * defaults dark, blue, fixed, full, en. The query parameters theme, nav-style and layout-type on
 * any URL change them; every change is remembered by the provided `persist` action.
 */
export const THEMES = ['dark', 'light'] as const;
export const COLORS = ['blue', 'violet', 'emerald', 'amber'] as const;
export const NAV_STYLES = ['fixed', 'static'] as const;
export const LAYOUT_TYPES = ['full', 'boxed'] as const;

export interface Settings {
  theme: (typeof THEMES)[number];
  color: (typeof COLORS)[number];
  navStyle: (typeof NAV_STYLES)[number];
  layoutType: (typeof LAYOUT_TYPES)[number];
  locale: Locale;
}

export const DEFAULT_SETTINGS: Settings = { theme: 'dark', color: 'blue', navStyle: 'fixed', layoutType: 'full', locale: DEFAULT_LOCALE };

const ALLOWED: { [K in keyof Settings]: readonly string[] } = {
  theme: THEMES,
  color: COLORS,
  navStyle: NAV_STYLES,
  layoutType: LAYOUT_TYPES,
  locale: ['en', 'zh', 'ar', 'it', 'es', 'fr'],
};

/** Keeps only known keys with allowed values: stored or typed settings are never trusted. */
export function sanitiseSettings(raw: unknown): Partial<Settings> {
  if (!raw || typeof raw !== 'object') return {};
  const out: Partial<Record<keyof Settings, string>> = {};
  for (const key of Object.keys(ALLOWED) as (keyof Settings)[]) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === 'string' && ALLOWED[key].includes(value)) out[key] = value;
  }
  if (out.locale && !isLocale(out.locale)) delete out.locale;
  return out as Partial<Settings>;
}

/** The query parameters that change display settings. */
export function settingsFromQuery(params: URLSearchParams): Partial<Settings> {
  return sanitiseSettings({
    theme: params.get('theme') ?? undefined,
    navStyle: params.get('nav-style') ?? undefined,
    layoutType: params.get('layout-type') ?? undefined,
  });
}

export type SettingsEvent = { type: 'SET'; settings: Partial<Settings> };

export const settingsMachine = setup({
  types: {
    input: {} as Partial<Settings> | undefined,
    context: {} as Settings,
    events: {} as SettingsEvent,
  },
  actions: {
    persist: (_, _params: Settings) => {},
  },
}).createMachine({
  id: 'settings',
  context: ({ input }) => ({ ...DEFAULT_SETTINGS, ...sanitiseSettings(input) }),
  on: {
    SET: {
      actions: [
        assign(({ context, event }) => ({ ...context, ...sanitiseSettings(event.settings) })),
        { type: 'persist', params: ({ context }) => context },
      ],
    },
  },
});
