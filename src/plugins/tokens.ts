import fp from 'fastify-plugin';
import { createTokenService } from '../modules/identity/index.ts';

/** `app.tokens`: signs and verifies access, refresh and purpose-bound tokens with the one secret. */
export default fp(
  async (app) => {
    app.decorate('tokens', createTokenService(app.config.jwtSecret));
  },
  { name: 'tokens', fastify: '5.x' },
);
