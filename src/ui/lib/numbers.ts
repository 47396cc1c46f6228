/**
 * Numbers as people type them in the six languages. The number fields are text fields (a browser's
 * number input refuses "10 000", and a refused value reads as empty, so a bid box would have bid
 * its minimum instead); these read what was typed:
 * - digits: ASCII, Arabic-Indic (٠١٢…) or Eastern Arabic-Indic (۰۱۲…);
 * - groups of three digits split by spaces (plain, no-break, narrow no-break: French writes
 *   10 000), by the language's own group separator ("10,000" in English, "10.000" in Italian and
 *   Spanish) or by the Arabic one (٬);
 * - a sign in front (callers decide whether one is allowed) and, for decimals, the language's
 *   decimal separator or a point (٫ too).
 * Anything else reads as NaN, for the caller's "a whole number…" message.
 */

const SPACE = '\\s\\u00a0\\u202f';
const ARABIC_GROUP = '\u066c';
const ARABIC_DECIMAL = '\u066b';

interface Grammar {
  whole: RegExp;
  decimal: RegExp;
}
const grammars = new Map<string, Grammar>();

const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');

function grammarOf(locale: string): Grammar {
  let grammar = grammars.get(locale);
  if (grammar) return grammar;
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const groups = `[${SPACE}${escape(group)}${ARABIC_GROUP}]`;
  // grouped first: "1.234" in Italian is a thousand and more, "0.5" (no group of three) a half
  const integer = `(\\d{1,3}(?:${groups}\\d{3})+|\\d+)`;
  const point = `[${escape(decimal)}.${ARABIC_DECIMAL}]`;
  grammar = {
    whole: new RegExp(`^([+\\-\\u2212]?)${integer}$`),
    decimal: new RegExp(`^([+\\-\\u2212]?)${integer}(?:${point}(\\d+))?$`),
  };
  grammars.set(locale, grammar);
  return grammar;
}

/** Arabic-Indic and Eastern Arabic-Indic digits as ASCII ones. */
function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String((d.codePointAt(0) ?? 0) & 0xf));
}

function signed(sign: string, digits: string): number {
  const n = Number(digits);
  return sign === '' || sign === '+' ? n : -n;
}

/** A whole number as typed in `locale` ("10 000", "10.000", "١٠٠٠٠"), or NaN. */
export function readWhole(text: string, locale: string): number {
  const match = grammarOf(locale).whole.exec(asciiDigits(text).trim());
  if (!match) return Number.NaN;
  return signed(match[1], match[2].replace(/\D/g, ''));
}

/** A number with an optional fraction as typed in `locale` ("0,5" in French, "1 234.5" in English), or NaN. */
export function readDecimal(text: string, locale: string): number {
  const match = grammarOf(locale).decimal.exec(asciiDigits(text).trim());
  if (!match) return Number.NaN;
  const integer = match[2].replace(/\D/g, '');
  return signed(match[1], match[3] === undefined ? integer : `${integer}.${match[3]}`);
}
