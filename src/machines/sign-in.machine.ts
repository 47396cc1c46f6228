import { assign, fromPromise, setup } from 'xstate';

/**
 * The sign-in form: email and password required, the email lowercased before sending,
 * the remember flag on by default. Success hands the token to whoever provided `signedIn`;
 * failure keeps the server's text (or the network message) for the Error notification.
 */
export interface SignInValues {
  email: string;
  password: string;
  remember: boolean;
}
export type SignInField = 'email' | 'password';
/** Locale message ids of the field errors. */
export type SignInErrors = Partial<Record<SignInField, 'signin.emailRequired' | 'signin.passwordRequired'>>;

export type SignInEvent =
  | { type: 'CHANGE'; field: SignInField; value: string }
  | { type: 'SET_REMEMBER'; value: boolean }
  | { type: 'SUBMIT' };

export function validateSignIn(values: SignInValues): SignInErrors {
  const errors: SignInErrors = {};
  if (!values.email.trim()) errors.email = 'signin.emailRequired';
  if (!values.password) errors.password = 'signin.passwordRequired';
  return errors;
}

export const signInMachine = setup({
  types: {
    context: {} as { values: SignInValues; errors: SignInErrors; failure: string | null },
    events: {} as SignInEvent,
  },
  actors: {
    login: fromPromise<string, { email: string; password: string }>(async () => {
      throw new Error('login is provided by the app');
    }),
  },
  actions: {
    signedIn: (_, _params: { token: string; remember: boolean }) => {},
    notifyFailure: (_, _params: { text: string }) => {},
  },
  guards: {
    valid: ({ context }) => Object.keys(validateSignIn(context.values)).length === 0,
  },
}).createMachine({
  id: 'signIn',
  context: { values: { email: '', password: '', remember: true }, errors: {}, failure: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        CHANGE: {
          actions: assign(({ context, event }) => {
            const errors = { ...context.errors };
            delete errors[event.field];
            return { values: { ...context.values, [event.field]: event.value }, errors };
          }),
        },
        SET_REMEMBER: { actions: assign({ values: ({ context, event }) => ({ ...context.values, remember: event.value }) }) },
        SUBMIT: [
          { guard: 'valid', target: 'submitting', actions: assign({ errors: {}, failure: null }) },
          { actions: assign({ errors: ({ context }) => validateSignIn(context.values), failure: null }) },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'login',
        input: ({ context }) => ({ email: context.values.email.trim().toLowerCase(), password: context.values.password }),
        onDone: {
          target: 'done',
          actions: { type: 'signedIn', params: ({ context, event }) => ({ token: event.output, remember: context.values.remember }) },
        },
        onError: {
          target: 'editing',
          actions: [
            assign({ failure: ({ event }) => errorText(event.error) }),
            { type: 'notifyFailure', params: ({ event }) => ({ text: errorText(event.error) }) },
          ],
        },
      },
    },
    done: { type: 'final' },
  },
});

export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
