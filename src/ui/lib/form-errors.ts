import type { IntlShape } from 'react-intl';
import { KINGDOM_NAME_MAX, KINGDOM_NUMBER_MAX, SETTINGS_ERRORS } from '../../protocol/settings';
import {
  DESCRIPTION_MAX,
  ITEM_NAME_MAX,
  MAX_DURATION_S,
  MAX_EXTEND_WINDOW_S,
  MAX_EXTENSIONS,
  MAX_PRICE,
  MIN_DURATION_S,
  STORE_ERRORS,
} from '../../protocol/store';

/** The longest group name an item's eligibility may list (the schema's limit). */
const GROUP_NAME_MAX = 50;

/**
 * The shared schemas speak the API's language (English, seconds, digits as the API takes them);
 * a form says the same in the reader's language, in the unit of its own field (the duration in
 * minutes) and with the locale's number format.
 */
const LOCALIZED: Record<string, [id: string, values: Record<string, number>]> = {
  [STORE_ERRORS.itemNameRequired]: ['manage.error.itemNameRequired', {}],
  [STORE_ERRORS.itemNameTooLong]: ['manage.error.itemNameTooLong', { max: ITEM_NAME_MAX }],
  [STORE_ERRORS.descriptionTooLong]: ['manage.error.descriptionTooLong', { max: DESCRIPTION_MAX }],
  [STORE_ERRORS.imageUrl]: ['manage.error.imageUrl', {}],
  [STORE_ERRORS.startPrice]: ['manage.error.startPrice', { min: 0, max: MAX_PRICE }],
  [STORE_ERRORS.minIncrement]: ['manage.error.minIncrement', { min: 1, max: MAX_PRICE }],
  [STORE_ERRORS.startsAt]: ['manage.error.startsAt', {}],
  [STORE_ERRORS.duration]: ['manage.error.durationMinutes', { min: MIN_DURATION_S / 60, max: MAX_DURATION_S / 60 }],
  [STORE_ERRORS.extendWindow]: ['manage.error.extendWindow', { min: 0, max: MAX_EXTEND_WINDOW_S }],
  [STORE_ERRORS.maxExtensions]: ['manage.error.maxExtensions', { min: 0, max: MAX_EXTENSIONS }],
  [STORE_ERRORS.eligibility]: ['manage.error.groups', { max: GROUP_NAME_MAX }],
  [SETTINGS_ERRORS.kingdomName]: ['kingdom.error.name', { max: KINGDOM_NAME_MAX }],
  [SETTINGS_ERRORS.kingdomNumber]: ['kingdom.error.number', { min: 1, max: KINGDOM_NUMBER_MAX }],
};

/**
 * A schema issue of a form in the reader's language: in the form's own unit and number format where
 * LOCALIZED says it, else as the server's texts are said (`say`, from useServerText).
 */
export function localizedError(intl: IntlShape, say: (text: string) => string, issue: { message: string; path: readonly PropertyKey[] }): string {
  // a group name's own length checks carry zod's default text: say what the field wants
  if (issue.path[0] === 'eligibility' && issue.path[1] === 'groups') return intl.formatMessage({ id: 'manage.error.groups' }, { max: GROUP_NAME_MAX });
  const found = LOCALIZED[issue.message];
  return found ? intl.formatMessage({ id: found[0] }, found[1]) : say(issue.message);
}

/** A schema issue as it comes from zod (`safeParse(...).error.issues`). */
export interface SchemaIssue {
  message: string;
  path: readonly PropertyKey[];
}

/**
 * The one way from a schema's issues to a form's errors: the first issue of each field (the first
 * segment of its path), in the reader's language; `fieldOf` maps a path to the form's own field
 * name when they differ (the API's `delta` is the form's `amount`, say).
 */
export function formErrors<F extends string>(
  intl: IntlShape,
  say: (text: string) => string,
  issues: readonly SchemaIssue[],
  fieldOf: (path: readonly PropertyKey[]) => F | undefined = (path) => (path.length > 0 ? (String(path[0]) as F) : undefined),
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    if (field !== undefined && errors[field] === undefined) errors[field] = localizedError(intl, say, issue);
  }
  return errors;
}
