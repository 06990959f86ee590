import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { JsonText } from '../lib/json-text.ts';

/** The Fastify instance with TypeBox types, as each feature's route registrars take it. */
export function typed(fastify: FastifyInstance) {
  return fastify.withTypeProvider<TypeBoxTypeProvider>();
}

/** What a registrar of one feature area receives: the routes it adds are typed by their schemas. */
export type TypedApp = ReturnType<typeof typed>;

/**
 * Sends JSON text that is already in the shape of the route's response schema (`JsonText`), as it
 * is: the content type is the one Fastify gives a serialized object, and the serializer is not run.
 */
export function sendJsonText<T>(reply: FastifyReply, text: JsonText<T>): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
