import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

/** The Fastify instance with TypeBox types, as each feature's route registrars take it. */
export function typed(fastify: FastifyInstance) {
  return fastify.withTypeProvider<TypeBoxTypeProvider>();
}

/** What a registrar of one feature area receives: the routes it adds are typed by their schemas. */
export type TypedApp = ReturnType<typeof typed>;
