import * as z from 'zod/mini';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { plainName } from './http';
import { MAX_DURATION_S, MAX_EXTEND_WINDOW_S, MAX_EXTENSIONS, MAX_PRICE, MIN_DURATION_S, STORE_ERRORS } from './store';

/**
 * Kingdom settings (GET/POST kingdom/settings), the eligibility groups (kingdom/groups) and the
 * caller's own groups (account/groups), on the wire.
 */
export const KINGDOM_NAME_MAX = 50;
/** Rise of Kingdoms numbers its kingdoms from 1; five digits leave room. */
export const KINGDOM_NUMBER_MAX = 99_999;
export const GROUP_NAME_MAX = 50;

export const SETTINGS_ERRORS = {
  kingdomName: `The kingdom name may have at most ${KINGDOM_NAME_MAX} characters.`,
  kingdomNumber: `The kingdom number must be a whole number from 1 to ${KINGDOM_NUMBER_MAX}, or empty.`,
  storeOpen: 'Store open must be true or false.',
  defaults: 'The auction defaults must be an object.',
  nothingToChange: 'Please send at least one setting to change.',
  groupName: `A group name has 1 to ${GROUP_NAME_MAX} characters.`,
  groupExists: 'A group with this name already exists.',
  unknownGroup: 'There is no group with this name.',
  usernameRequired: 'Please name the player.',
  member: 'Member must be true (add) or false (remove).',
  unknownUser: 'No player has this username.',
} as const;

const wholeIn = (min: number, max: number, error: string) => z.int({ error }).check(z.gte(min, error), z.lte(max, error));

/** What the create form of the store management page starts from; the same limits as an item. */
export const auctionDefaults = z.object({
  duration: wholeIn(MIN_DURATION_S, MAX_DURATION_S, STORE_ERRORS.duration),
  minIncrement: wholeIn(1, MAX_PRICE, STORE_ERRORS.minIncrement),
  extendWindow: wholeIn(0, MAX_EXTEND_WINDOW_S, STORE_ERRORS.extendWindow),
  maxExtensions: wholeIn(0, MAX_EXTENSIONS, STORE_ERRORS.maxExtensions),
});
export type AuctionDefaults = z.infer<typeof auctionDefaults>;

export const kingdomSettings = z.object({
  kingdomName: z.string(),
  /** null until leadership sets it. */
  kingdomNumber: z.nullable(z.int()),
  /** false: every bid is refused with BID_OPEN_ERROR. */
  storeOpen: z.boolean(),
  defaults: auctionDefaults,
});
export type KingdomSettings = z.infer<typeof kingdomSettings>;

/** A fresh database's settings. */
export const DEFAULT_SETTINGS: KingdomSettings = {
  kingdomName: '',
  kingdomNumber: null,
  storeOpen: true,
  defaults: { duration: 3600, minIncrement: 10, extendWindow: 60, maxExtensions: 10 },
};

/** POST kingdom/settings: any of the settings, and any of the defaults; the rest stays as it is. */
export const settingsBody = z.object({
  kingdomName: z.optional(
    z.pipe(
      z.string({ error: SETTINGS_ERRORS.kingdomName }),
      z.pipe(
        z.transform((v: string) => v.trim()),
        z.string().check(z.maxLength(KINGDOM_NAME_MAX, SETTINGS_ERRORS.kingdomName), plainName()),
      ),
    ),
  ),
  kingdomNumber: z.optional(z.nullable(wholeIn(1, KINGDOM_NUMBER_MAX, SETTINGS_ERRORS.kingdomNumber))),
  storeOpen: z.optional(z.boolean({ error: SETTINGS_ERRORS.storeOpen })),
  defaults: z.optional(
    z.object(
      {
        duration: z.optional(auctionDefaults.shape.duration),
        minIncrement: z.optional(auctionDefaults.shape.minIncrement),
        extendWindow: z.optional(auctionDefaults.shape.extendWindow),
        maxExtensions: z.optional(auctionDefaults.shape.maxExtensions),
      },
      { error: SETTINGS_ERRORS.defaults },
    ),
  ),
});
export type SettingsBody = z.input<typeof settingsBody>;

const groupName = z.pipe(
  z.string({ error: SETTINGS_ERRORS.groupName }),
  z.pipe(
    z.transform((v: string) => v.trim()),
    z.string().check(z.minLength(1, SETTINGS_ERRORS.groupName), z.maxLength(GROUP_NAME_MAX, SETTINGS_ERRORS.groupName), plainName()),
  ),
);

export const group = z.object({ name: z.string(), members: z.array(z.string()) });
export type Group = z.infer<typeof group>;

/** POST kingdom/groups: names are unique without regard to case. */
export const createGroupBody = z.object({ name: groupName });

/** POST kingdom/groups/:name/members. */
export const groupMemberBody = z.object({
  username: z.pipe(
    z.string({ error: SETTINGS_ERRORS.usernameRequired }),
    z.pipe(z.transform((v: string) => v.trim()), z.string().check(z.minLength(1, SETTINGS_ERRORS.usernameRequired), z.maxLength(64, SETTINGS_ERRORS.unknownUser))),
  ),
  member: z.boolean({ error: SETTINGS_ERRORS.member }),
});

const settingsAnswer = resultTrue({ settings: kingdomSettings });
const groupAnswer = resultTrue({ group });
/** A group in a path is named as it is written (the route trims it). */
const groupParams = { name: z.string() };

/** The kingdom's settings and eligibility groups. */
export const KINGDOM_API = {
  settings: endpoint({
    method: 'GET',
    path: 'kingdom/settings',
    answer: settingsAnswer,
    errors: [401],
    tag: 'kingdom',
    summary: "The kingdom's settings: name, number, whether the store is open, and the defaults of a new auction",
  }),
  saveSettings: endpoint({
    method: 'POST',
    path: 'kingdom/settings',
    body: settingsBody,
    answer: settingsAnswer,
    errors: [400, 401, 403],
    tag: 'kingdom',
    summary:
      'Change any of the settings (the rest stays). storeOpen false: every bid gets ERROR BID_OPEN_ERROR and every live item keeps the time it has left (none ends) until the store opens again; then each ends that long after the opening. Everyone hears STORE_STATE',
  }),
  groups: endpoint({
    method: 'GET',
    path: 'kingdom/groups',
    answer: resultTrue({ groups: z.array(group) }),
    errors: [401, 403],
    tag: 'kingdom',
    summary: 'Every eligibility group with its members, by name',
  }),
  createGroup: endpoint({
    method: 'POST',
    path: 'kingdom/groups',
    body: createGroupBody,
    answer: groupAnswer,
    errors: [400, 401, 403, 409],
    tag: 'kingdom',
    summary: 'Create an empty group; names are unique without regard to case (409 otherwise)',
  }),
  deleteGroup: endpoint({
    method: 'POST',
    path: 'kingdom/groups/:name/delete',
    params: groupParams,
    answer: okAnswer,
    errors: [401, 403, 404],
    tag: 'kingdom',
    summary: 'Delete a group and its memberships (items that name it keep the name; nobody is in it any more)',
  }),
  setMember: endpoint({
    method: 'POST',
    path: 'kingdom/groups/:name/members',
    params: groupParams,
    body: groupMemberBody,
    answer: groupAnswer,
    errors: [400, 401, 403, 404],
    tag: 'kingdom',
    summary: 'Add (member true) or remove (member false) a player; answers the group with its members',
  }),
} as const;
