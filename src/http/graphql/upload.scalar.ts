import { GraphQLError, GraphQLScalarType } from 'graphql';

/**
 * A file sent with a GraphQL multipart request (graphql-multipart-request-spec): the multipart
 * middleware (graphql.multipart.ts) has written it to a temporary file, which it removes once the
 * answer is sent, and puts this in the variables at the place the request's `map` names.
 */
export class UploadedFile {
  constructor(
    /** The temporary file. */
    readonly path: string,
    /** The file name the client gave (its part's Content-Disposition), if any. */
    readonly filename: string | undefined,
    readonly bytes: number,
    /** Hex SHA-256 of the bytes, taken as they were written. */
    readonly sha256: string,
  ) {}
}

/** `Upload`: a file part of a multipart request. Only the multipart middleware makes its values; a literal or a JSON value is refused. */
export const UploadScalar = new GraphQLScalarType<UploadedFile, never>({
  name: 'Upload',
  description:
    'A file of a multipart request (the GraphQL multipart request specification: the fields operations, map, then the files). ' +
    'Its variable is null in `operations`; `map` names the part that fills it. Such requests need the header `Apollo-Require-Preflight: true`.',
  parseValue(value) {
    if (value instanceof UploadedFile) return value;
    throw new GraphQLError('Upload: send the file as a part of a multipart request (see docs/API.md, "Uploads over GraphQL")', { extensions: { code: 'BAD_USER_INPUT' } });
  },
  parseLiteral() {
    throw new GraphQLError('Upload: a file cannot be written in the document; send it as a variable of a multipart request', { extensions: { code: 'BAD_USER_INPUT' } });
  },
  serialize() {
    throw new GraphQLError('Upload is an input type only');
  },
});
