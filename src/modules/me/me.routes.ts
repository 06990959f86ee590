import type { FastifyInstance } from 'fastify';
import { readUpload } from '../../plugins/uploads.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../plugins/auth.ts';
import { Errors } from '../../lib/errors.ts';
import { IMAGE_MAX_BYTES, loadImage } from './images.ts';
import { type createMeService, Profile, ProfileUpdate } from './me.service.ts';

export default async function meRoutes(
  fastify: FastifyInstance,
  { me: service }: { me: ReturnType<typeof createMeService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/me', { schema: { summary: "The caller's profile", response: { 200: Profile } } }, async (req) =>
    service.get(userOf(req).id),
  );

  app.put(
    '/api/me',
    {
      schema: {
        summary: 'Edit nickname, avatar_url, slogan, time zone or base currency',
        body: ProfileUpdate,
        response: { 200: Profile },
      },
    },
    async (req) => service.update(userOf(req).id, req.body),
  );

  app.post(
    '/api/me/avatar',
    {
      schema: {
        summary: 'Upload an avatar (multipart field `file`)',
        description:
          'PNG, JPEG, WebP or GIF recognised by its bytes, at most 2 MiB and 4096 pixels a side (41301), other types ' +
          '41501. ' +
          'The image is re-encoded without metadata, stored, and set as the profile avatar.',
        consumes: ['multipart/form-data'],
        response: { 200: Type.Object({ avatar_url: Type.String() }) },
      },
    },
    async (req) => {
      const user = userOf(req);
      if (!req.isMultipart()) throw Errors.unsupportedMedia('send the image as multipart/form-data, field "file"');
      const file = await req.file({ limits: { fileSize: IMAGE_MAX_BYTES, files: 1 } });
      if (!file || file.fieldname !== 'file') throw Errors.field('file', 'is required');
      const buf = await readUpload(file);
      return service.setAvatar(user.id, buf);
    },
  );

  app.get(
    '/api/avatars/:key',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'An uploaded image, public',
        params: Type.Object({ key: Type.String({ pattern: '^[a-f0-9]{32}\\.(png|jpg|webp|gif)$' }) }),
        produces: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the image' }) },
      },
    },
    async (req, reply) => {
      const img = await loadImage(app.db, req.params.key);
      if (!img) throw Errors.notFound('image');
      // keys are random and content never changes under a key: cache for a year
      return reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Content-Security-Policy', "default-src 'none'")
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .type(img.contentType)
        .send(img.data);
    },
  );
}
