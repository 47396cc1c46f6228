import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkLocales } from '../../scripts/check-locales';
import { AUDIT_ACTIONS } from '../../src/protocol/admin';

const real = (locale: string) => JSON.parse(readFileSync(`src/locales/${locale}.json`, 'utf8'));

describe('the locale check', () => {
  it('passes on the shipped locales', () => {
    expect(checkLocales(real)).toEqual([]);
  });

  it('names a missing key, an extra key, an empty value, a lost placeholder and bad ICU', () => {
    const problems = checkLocales((locale) => {
      const messages = real(locale);
      if (locale === 'fr') delete messages['signin.title'];
      if (locale === 'es') messages['made.up'] = 'x';
      if (locale === 'it') messages['signin.submit'] = '';
      if (locale === 'zh') messages['app.kingdomPoints'] = '王国积分';
      if (locale === 'ar') messages['app.reserved'] = '{reserved';
      return messages;
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'fr: missing key signin.title',
        'es: extra key made.up',
        'it: signin.submit is not a non-empty string',
        'zh: app.kingdomPoints has placeholders {}, English has {balance}',
        expect.stringMatching(/^ar: app\.reserved is not valid ICU MessageFormat/),
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it('keeps the English texts word for word', () => {
    const en = real('en');
    expect(en['error.404']).toBe('Oops, an error has occurred. Page not found!');
    expect(en['error.500']).toBe('Sorry, server goes wrong');
    expect(en['cookie.accept']).toBe('I understand!');
    expect(en['signup.success']).toBe('Your account has been created');
    expect(en['signup.error']).toBe('There was an error creating your account');
  });
});

describe('texts made of a code', () => {
  it('every audit action and every area of them has its words (a new action without them fails here)', () => {
    const en = real('en') as Record<string, string>;
    for (const action of AUDIT_ACTIONS) expect(en[`admin.audit.action.${action}`], action).toBeTruthy();
    for (const area of new Set(AUDIT_ACTIONS.map((a) => a.split('.')[0]))) expect(en[`admin.audit.area.${area}`], area).toMatch(/\(all\)$/);
  });
});

describe('English counts', () => {
  it('one kingdom point, two kingdom points', async () => {
    const { IntlMessageFormat } = await import('intl-messageformat');
    const en = real('en') as Record<string, string>;
    const say = (key: string, values: Record<string, unknown>) => new IntlMessageFormat(en[key], 'en').format(values);
    expect(say('points.granted', { amount: 1, username: 'Aurelia', balance: 1 })).toBe('Granted 1 kingdom point to Aurelia. Balance now: 1.');
    expect(say('points.deducted', { amount: 1_250, username: 'Aurelia', balance: 0 })).toBe('Deducted 1,250 kingdom points from Aurelia. Balance now: 0.');
    expect(say('store.check.balance', { available: 1 })).toBe('You have 1 kingdom point available for this bid.');
    expect(say('notify.won.text', { itemName: 'Relic', amount: 1 })).toBe('Relic is yours for 1 kingdom point');
  });
});
