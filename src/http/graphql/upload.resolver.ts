import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { UploadFetcher } from '../../uploads/upload.fetcher';
import type { UploadHints, UploadService } from '../../uploads/upload.service';
import { AnalysisStatus, analysisStatusOf } from './analysis.types';
import type { GraphQLContext } from './graphql.context';
import { ANALYSIS_COST } from './graphql.cost';
import { UploadScalar, type UploadedFile } from './upload.scalar';

/**
 * Analyses of the audio a client brings, as REST's POST /api/audio/analyses: a file of a
 * multipart request, or a URL. Both answer where the analysis stands, its analysis when DONE
 * (QUEUED or PROCESSING past ANALYSIS_WAIT_MS: ask `analysisStatus` or subscribe to
 * `analysisCompleted` with the trackKey). Any key may call them.
 */
@Resolver()
export class UploadResolver {
  constructor(
    private readonly uploads: UploadService,
    private readonly fetcher: UploadFetcher,
  ) {}

  @Mutation(() => AnalysisStatus, {
    description:
      'Analyses an audio file sent with this request (a GraphQL multipart request; header Apollo-Require-Preflight: true). ' +
      'Named by artist and track, else by the file\'s tags, else by its file name ("Artist - Title.mp3"). The same bytes are analysed once.',
    complexity: ({ childComplexity }) => ANALYSIS_COST + childComplexity,
  })
  async analyseUpload(
    @Arg('file', () => UploadScalar, { description: 'The audio file (MP3, FLAC, WAV, Ogg, AAC/M4A, …; at most UPLOAD_MAX_BYTES).' }) file: UploadedFile,
    @Arg('artist', () => String, { nullable: true, description: 'The artist to file it under.' }) artist: string | null,
    @Arg('track', () => String, { nullable: true, description: 'The title to file it under.' }) track: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<AnalysisStatus> {
    const hints: UploadHints = { ...names(artist, track), ...(file.filename ? { filename: file.filename } : {}) };
    // The request's file is the upload's: taken over where it lies, not copied (the middleware
    // removes it on close too, should anything have left it).
    return analysisStatusOf(await this.uploads.uploadReceived({ path: file.path, bytes: file.bytes, sha256: file.sha256 }, hints, context.principal.id));
  }

  @Mutation(() => AnalysisStatus, {
    description:
      'Fetches the audio at a URL (http or https, a public address; within UPLOAD_FETCH_TIMEOUT_MS and UPLOAD_MAX_BYTES) and analyses it as an upload. ' +
      'Named by artist and track, else by the file\'s tags, else by the URL\'s file name.',
    complexity: ({ childComplexity }) => ANALYSIS_COST + childComplexity,
  })
  async analyseUrl(
    @Arg('url', () => String, { description: 'The address of the audio file.' }) url: string,
    @Arg('artist', () => String, { nullable: true, description: 'The artist to file it under.' }) artist: string | null,
    @Arg('track', () => String, { nullable: true, description: 'The title to file it under.' }) track: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<AnalysisStatus> {
    return analysisStatusOf(await this.fetcher.analyseUrl({ url, ...names(artist, track) }, context.principal.id));
  }
}

function names(artist: string | null, track: string | null): { artist?: string; track?: string } {
  return { ...(artist !== null ? { artist } : {}), ...(track !== null ? { track } : {}) };
}
