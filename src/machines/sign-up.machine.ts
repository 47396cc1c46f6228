import { assign, fromPromise, setup } from 'xstate';
import { EMAIL_RULE, PLAYER_ID_RULE, isStrongPassword, normalisePlayerId } from '../protocol/auth';
import { errorText } from './sign-in.machine';

/**
 * The sign-up form: idle → submitting → success (success alert, form cleared) or error (error
 * alert). Alerts reset at each submit. Field errors are locale message ids.
 */
export interface SignUpValues {
  username: string;
  playerid: string;
  email: string;
  password: string;
  confirm: string;
}
export type SignUpField = keyof SignUpValues;
export type SignUpErrors = Partial<Record<SignUpField, string>>;

export type SignUpEvent = { type: 'CHANGE'; field: SignUpField; value: string } | { type: 'SUBMIT' };

export const EMPTY_SIGN_UP: SignUpValues = { username: '', playerid: '', email: '', password: '', confirm: '' };

export function validateSignUp(v: SignUpValues): SignUpErrors {
  const errors: SignUpErrors = {};
  if (!v.username.trim()) errors.username = 'signup.usernameRequired';
  if (!v.playerid.trim()) errors.playerid = 'signup.playeridRequired';
  else if (!PLAYER_ID_RULE.test(normalisePlayerId(v.playerid))) errors.playerid = 'signup.playeridRequired';
  if (!EMAIL_RULE.test(v.email.trim())) errors.email = 'signup.emailInvalid';
  if (!isStrongPassword(v.password)) errors.password = 'signup.passwordRule';
  if (!v.confirm) errors.confirm = 'signup.confirmRequired';
  else if (v.confirm !== v.password) errors.confirm = 'signup.confirmMismatch';
  return errors;
}

export const signUpMachine = setup({
  types: {
    context: {} as { values: SignUpValues; errors: SignUpErrors; serverError: string | null },
    events: {} as SignUpEvent,
  },
  actors: {
    register: fromPromise<void, { username: string; playerid: string; email: string; password: string }>(async () => {
      throw new Error('register is provided by the app');
    }),
  },
  guards: {
    valid: ({ context }) => Object.keys(validateSignUp(context.values)).length === 0,
  },
  actions: {
    change: assign(({ context, event }) => {
      if (event.type !== 'CHANGE') return {};
      const errors = { ...context.errors };
      delete errors[event.field];
      return { values: { ...context.values, [event.field]: event.value }, errors };
    }),
  },
}).createMachine({
  id: 'signUp',
  context: { values: EMPTY_SIGN_UP, errors: {}, serverError: null },
  initial: 'idle',
  on: {
    CHANGE: { actions: 'change' },
    SUBMIT: [
      // alerts reset at each submit
      { guard: 'valid', target: '.submitting', actions: assign({ errors: {}, serverError: null }) },
      { target: '.idle', actions: assign({ errors: ({ context }) => validateSignUp(context.values), serverError: null }) },
    ],
  },
  states: {
    idle: {},
    submitting: {
      on: { SUBMIT: {}, CHANGE: {} },
      invoke: {
        src: 'register',
        input: ({ context }) => ({
          username: context.values.username.trim(),
          playerid: context.values.playerid.trim(),
          email: context.values.email.trim().toLowerCase(),
          password: context.values.password,
        }),
        onDone: { target: 'success', actions: assign({ values: EMPTY_SIGN_UP }) },
        onError: { target: 'error', actions: assign({ serverError: ({ event }) => errorText(event.error) }) },
      },
    },
    success: {},
    error: {},
  },
});
