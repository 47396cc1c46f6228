import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LINK_FILE_ERRORS, LINKS_MAX_BYTES, linkPreviewAnswer, PLAYER_LINKS_API } from '../../../src/protocol/player-links';
import type { AppContext } from '../../context';
import { checkLinkRows } from '../../scans/link-import';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors } from '../schemas';
import { serve } from '../contract';
import { acceptMultipart, readUploadedFile } from '../uploads';

/** Player IDs from a file: farms linked to accounts in bulk, previewed then applied. */
export function playerLinkRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const admin = requireRank(ctx, 'admin');

    // multipart/form-data only for the preview (an encapsulated instance)
    await app.register(async (multipartRoot) => {
      const multipartApp = multipartRoot.withTypeProvider<ZodTypeProvider>();
      await acceptMultipart(multipartApp);
      multipartApp.post(
        '/player-ids/import/preview',
        {
          preValidation: admin,
          schema: {
            summary:
              'Preview linking governors to accounts from a file: multipart/form-data with `file` (CSV or XLSX, at most 2 MB and 5,000 rows; columns governor id and account, a header row may name them in any of the six languages). ' +
              'Each row comes back with its outcome: link, unseen (no scan has seen the governor id: linked all the same), already (nothing to do), or left out: invalid, unknown-account, taken (linked to another account: a file never moves a link) and duplicate. ' +
              'Nothing is linked; the token applies the preview (POST /player-ids/import/apply) within 10 minutes, once.',
            tags: ['scans'],
            security: BEARER,
            consumes: ['multipart/form-data'],
            response: { 200: linkPreviewAnswer, ...resultErrors(400, 401, 403, 503) },
          },
        },
        async (request) => {
          const { bytes } = await readUploadedFile(request, LINKS_MAX_BYTES, { missing: LINK_FILE_ERRORS.noFile, tooLarge: LINK_FILE_ERRORS.tooLarge });
          const { rows, planned } = await checkLinkRows(ctx.db, await ctx.readers.bulk(bytes));
          return { result: true as const, ...(await ctx.links.preview(authOf(request).user.id, rows, planned)) };
        },
      );
    });

    serve(app, PLAYER_LINKS_API.apply, { preValidation: admin }, async (request) => {
      const actorId = authOf(request).user.id;
      const linked = await ctx.links.apply(request.body.token, actorId);
      request.log.info({ by: actorId, linked }, 'governors linked from a file');
      return { result: true as const, linked };
    });
  };
}
