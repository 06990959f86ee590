import { Type } from 'typebox';
import { Id, Nullable } from '../../lib/schemas.ts';

export const LoginBody = Type.Object({
  code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$', description: 'the login code from the mini-program (1 to 128 of A-Z a-z 0-9 _ -)' }),
});

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 4096 }) });

export const TokenPair = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'access token lifetime in seconds (7200)' }),
  refresh_expires_in: Type.Integer({ description: 'refresh token lifetime in seconds (30 days)' }),
});

export const LoginResult = Type.Object({
  ...TokenPair.properties,
  user: Type.Object({
    id: Id,
    nickname: Type.String(),
    avatar_url: Nullable(Type.String()),
    role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  }),
});
