/** Texts of the server's own HTTP refusals, any route's (the account and sign-in texts are AUTH_ERRORS). */
export const HTTP_ERRORS = {
  bodyTooLarge: 'The request body is too large.',
  jsonOnly: 'Send the request body as JSON (Content-Type: application/json).',
  badRequest: 'The request is not valid.',
  notFound: 'There is no API route at this address.',
  internal: 'Something went wrong on the server. Please try again later.',
  uploadIncomplete: 'The upload was cut off before its end: please send the file again.',
  invalidUtf8: 'The request body is not valid UTF-8 text.',
  busy: 'The server is busy. Please try again in a moment.',
} as const;
