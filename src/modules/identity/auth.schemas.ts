import { Type } from 'typebox';
import { Id, Nullable } from '../../lib/schemas.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.ts';

export const LoginBody = Type.Object({
  code: Type.String({
    pattern: '^[A-Za-z0-9_-]{1,128}$',
    description: 'the login code from the mini-program (1 to 128 of A-Z a-z 0-9 _ -)',
  }),
});

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 4096 }) });

/**
 * Every answer with a token pair also sets the web client's first-page cookie (src/plugins/
 * first-screen.ts); clients of the API may ignore it: no /api route reads cookies.
 */
const withPageCookie = {
  headers: {
    'set-cookie': Type.String({
      description:
        'ledger_page=<token>; Path=/; Max-Age=<refresh lifetime>; HttpOnly; SameSite=Strict (Secure on https): lets ' +
        'the server render the first screen of the web client (/, /books, /stats) into the page. No /api route reads ' +
        'it; POST /api/auth/logout clears it.',
    }),
  },
};

const tokenPairProperties = {
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'access token lifetime in seconds (7200)' }),
  refresh_expires_in: Type.Integer({ description: 'refresh token lifetime in seconds (30 days)' }),
};

export const TokenPair = Type.Object(tokenPairProperties, withPageCookie);

export const LoginResult = Type.Object(
  {
    ...tokenPairProperties,
    user: Type.Object({
      id: Id,
      nickname: Type.String(),
      avatar_url: Nullable(Type.String()),
      role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
    }),
  },
  withPageCookie,
);

export const Username = Type.String({
  minLength: 1,
  maxLength: 128,
  description:
    'Read after NFKC: 3 to 32 characters of letters of any script (王小明), the digits 0-9, `_`, `.` and `-`; 2 are ' +
    'enough when it has letters outside A-Z. ' +
    'Latin, Cyrillic and Greek letters, which look alike, may not be mixed. Unique case-insensitively. Refused: ' +
    '40001 on `username` with ' +
    '`reason` length, characters or mixed_scripts',
});
const Password = (description: string) => Type.String({ minLength: 1, maxLength: 1024, description });
const NEW_PASSWORD = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters (Unicode, normalized NFKC); not a common password, not the username (42201 with \`reason\`: too_short, too_long, common, same_as_username)`;

export const RegisterBody = Type.Object(
  {
    username: Username,
    password: Password(NEW_PASSWORD),
    nickname: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: '1 to 30 characters; default the username' }),
    ),
  },
  { additionalProperties: false },
);

export const PasswordLoginBody = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 64 }), password: Password('the password') },
  { additionalProperties: false },
);

export const PasswordChangeBody = Type.Object(
  {
    current_password: Type.Optional(Password('required when the account has a password')),
    new_password: Password(NEW_PASSWORD),
  },
  { additionalProperties: false },
);

export const UsernameBody = Type.Object({ username: Username }, { additionalProperties: false });
