import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import {
  DEFAULT_SETTINGS,
  sanitiseSettings,
  settingsFromQuery,
  settingsMachine,
  type Settings,
} from '../../src/machines/settings.machine';

function start(input?: Partial<Settings>) {
  const persist = vi.fn();
  const actor = createActor(settingsMachine.provide({ actions: { persist: (_, params) => persist({ ...params }) } }), {
    clock: new SimulatedClock(),
    input,
  }).start();
  return { actor, persist, settings: () => actor.getSnapshot().context };
}

describe('settings defaults', () => {
  it('are dark, blue, fixed, full, en', () => {
    expect(DEFAULT_SETTINGS).toEqual({ theme: 'dark', color: 'blue', navStyle: 'fixed', layoutType: 'full', locale: 'en' });
    expect(start().settings()).toEqual(DEFAULT_SETTINGS);
  });

  it('take stored values over the defaults, and drop stored values that are not allowed', () => {
    expect(start({ theme: 'light', locale: 'ar' }).settings()).toEqual({ ...DEFAULT_SETTINGS, theme: 'light', locale: 'ar' });
    const tampered = { theme: 'neon', color: 'emerald', navStyle: 'floating', locale: 'de' } as unknown as Partial<Settings>;
    expect(start(tampered).settings()).toEqual({ ...DEFAULT_SETTINGS, color: 'emerald' });
  });
});

describe('sanitiseSettings', () => {
  it('keeps only known keys with allowed string values', () => {
    expect(sanitiseSettings({ theme: 'light', layoutType: 'boxed', extra: 'x', navStyle: 3, locale: 'zh' })).toEqual({
      theme: 'light',
      layoutType: 'boxed',
      locale: 'zh',
    });
  });

  it.each([null, undefined, 'dark', 42, []])('returns nothing for %j', (raw) => {
    expect(sanitiseSettings(raw)).toEqual({});
  });
});

describe('settingsFromQuery', () => {
  it('maps theme, nav-style and layout-type', () => {
    expect(settingsFromQuery(new URLSearchParams('theme=light&nav-style=static&layout-type=boxed'))).toEqual({
      theme: 'light',
      navStyle: 'static',
      layoutType: 'boxed',
    });
  });

  it('ignores invalid values, unknown parameters and the camel-case spellings', () => {
    expect(settingsFromQuery(new URLSearchParams('theme=neon&nav-style=static&navStyle=fixed&layoutType=boxed&color=amber&locale=fr'))).toEqual({
      navStyle: 'static',
    });
    expect(settingsFromQuery(new URLSearchParams(''))).toEqual({});
  });
});

describe('settings machine', () => {
  it('SET applies allowed values and persists the whole new settings', () => {
    const t = start();
    t.actor.send({ type: 'SET', settings: { theme: 'light', color: 'violet' } });
    const expected = { ...DEFAULT_SETTINGS, theme: 'light', color: 'violet' };
    expect(t.settings()).toEqual(expected);
    expect(t.persist).toHaveBeenCalledTimes(1);
    expect(t.persist).toHaveBeenCalledWith(expected);
  });

  it('SET ignores invalid values but keeps the valid ones sent with them', () => {
    const t = start();
    t.actor.send({ type: 'SET', settings: { theme: 'pink', layoutType: 'boxed', locale: 'xx' } as unknown as Partial<Settings> });
    expect(t.settings()).toEqual({ ...DEFAULT_SETTINGS, layoutType: 'boxed' });
    expect(t.persist).toHaveBeenLastCalledWith({ ...DEFAULT_SETTINGS, layoutType: 'boxed' });
  });

  it('SET with only invalid values leaves the settings as they were', () => {
    const t = start({ theme: 'light' });
    t.actor.send({ type: 'SET', settings: { theme: 'pink', navStyle: 'sticky' } as unknown as Partial<Settings> });
    expect(t.settings()).toEqual({ ...DEFAULT_SETTINGS, theme: 'light' });
  });

  it('each SET builds on the last and persists each result', () => {
    const t = start();
    t.actor.send({ type: 'SET', settings: settingsFromQuery(new URLSearchParams('nav-style=static')) });
    t.actor.send({ type: 'SET', settings: { locale: 'es' } });
    expect(t.settings()).toEqual({ ...DEFAULT_SETTINGS, navStyle: 'static', locale: 'es' });
    expect(t.persist.mock.calls.map(([s]) => s)).toEqual([
      { ...DEFAULT_SETTINGS, navStyle: 'static' },
      { ...DEFAULT_SETTINGS, navStyle: 'static', locale: 'es' },
    ]);
  });

  it.each(['en', 'zh', 'ar', 'it', 'es', 'fr'] as const)('accepts the locale %s', (locale) => {
    const t = start();
    t.actor.send({ type: 'SET', settings: { locale } });
    expect(t.settings().locale).toBe(locale);
  });
});
