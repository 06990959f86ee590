import fp from 'fastify-plugin';
import { createTokenService, type TokenService } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
  }
}

/** `app.tokens`: signs and verifies access, refresh and purpose-bound tokens with the one secret. */
export default fp(
  async (app) => {
    app.decorate('tokens', createTokenService(app.config.jwtSecret));
  },
  { name: 'tokens', fastify: '5.x' },
);
