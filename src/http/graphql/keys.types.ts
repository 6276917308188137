import { ArgsType, Field, Float, GraphQLISODateTime, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { ApiKeyInfo, Principal } from '../../auth/api-keys';
import type { UsageRow } from '../../usage/usage.service';

/*
 * Keys and usage as the admin API names them (the dashboard's admin pages, web/src/admin, are
 * written against these names).
 */

/** The scopes, with the service's values behind GraphQL's names. */
export enum ApiKeyScope {
  READ = 'read',
  ADMIN = 'admin',
}

registerEnumType(ApiKeyScope, {
  name: 'ApiKeyScope',
  description: 'What a key may do.',
  valuesConfig: {
    READ: { description: 'The API: search, analyses, browsing, and its own usage.' },
    ADMIN: { description: 'The API, and managing keys, webhooks and every key’s usage.' },
  },
});

@ObjectType({ description: 'The key a request is made with. Any key may ask for itself.' })
export class Viewer {
  @Field(() => ID, { description: 'The key’s id (never the key).' })
  id!: string;

  @Field(() => String, { description: 'The key’s name.' })
  name!: string;

  @Field(() => ApiKeyScope, { description: 'What the key may do: the admin pages need ADMIN.' })
  scope!: ApiKeyScope;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'From when the key is refused; null: never.' })
  expiresAt!: string | null;
}

@ObjectType({ description: 'An API key as it is listed: never the key itself.' })
export class ApiKey {
  @Field(() => ID, { description: 'The key’s id: "env:N" and "env-admin:N" for keys of API_KEYS and ADMIN_API_KEYS.' })
  id!: string;

  @Field(() => String, { description: 'What the key is for.' })
  name!: string;

  @Field(() => ApiKeyScope, { description: 'What the key may do.' })
  scope!: ApiKeyScope;

  @Field(() => GraphQLISODateTime, { description: 'When it was made; for a key of the environment, when the server process started.' })
  createdAt!: string;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'From when it is refused; null: never.' })
  expiresAt!: string | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'Its last request: as of each server’s last flush of last uses (USAGE_FLUSH_MS), this server’s at once; null: never used.',
  })
  lastUsedAt!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it was revoked; null: it is not.' })
  revokedAt!: string | null;

  @Field(() => String, {
    description:
      'Where the key comes from: "API_KEYS" or "ADMIN_API_KEYS" (the configuration; revoked only by removing it there), ' +
      'or the database: "api" (made through the API), "cli" (npm run apikey), "first-run" (the first start of a server without keys).',
  })
  source!: string;
}

@ObjectType({ description: 'A key just made: the key itself is in this answer only (only its hash is stored).' })
export class CreatedApiKey {
  @Field(() => ApiKey, { description: 'The key as it is listed from now on.' })
  apiKey!: ApiKey;

  @Field(() => String, { description: 'The key: send it as "Authorization: Bearer <key>". Store it now; it is not shown again.' })
  key!: string;
}

@ObjectType({ description: 'Requests, analyses and uploads of one key on one UTC day. Days without requests have no row.' })
export class UsageDay {
  @Field(() => ID, { description: 'The key’s id.' })
  keyId!: string;

  @Field(() => String, { description: 'The key’s name (its id if the key is no longer known).' })
  name!: string;

  @Field(() => String, { description: 'The UTC day, YYYY-MM-DD.' })
  day!: string;

  @Field(() => Int, { description: 'Requests made with the key while it was valid (REST and GraphQL HTTP requests; those the rate limit refused included).' })
  requests!: number;

  @Field(() => Int, { description: 'Of those, the requests that needed an analysis not stored yet.' })
  analyses!: number;

  @Field(() => Int, { description: 'Uploads begun (POST /api/audio/analyses), whatever their outcome: what UPLOAD_QUOTA_FILES_PER_DAY counts.' })
  uploads!: number;

  @Field(() => Float, { description: 'Bytes received of those uploads: what UPLOAD_QUOTA_BYTES_PER_DAY counts (a Float: a day may pass 2^31 bytes).' })
  uploadBytes!: number;
}

/** The arguments of createApiKey, in this order (parameter decorators would list them backwards). */
@ArgsType()
export class CreateApiKeyArgs {
  @Field(() => String, { description: 'What the key is for: 1–100 characters, no control characters.' })
  name!: string;

  @Field(() => ApiKeyScope, { nullable: true, defaultValue: ApiKeyScope.READ, description: 'What the key may do.' })
  scope?: ApiKeyScope | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'From when the key is refused (in the future); null: never.' })
  expiresAt?: Date | null;
}

const scopeOf = (scope: 'read' | 'admin'): ApiKeyScope => (scope === 'admin' ? ApiKeyScope.ADMIN : ApiKeyScope.READ);

export function viewerOf(principal: Principal): Viewer {
  return { id: principal.id, name: principal.name, scope: scopeOf(principal.scope), expiresAt: principal.expiresAt };
}

export function apiKeyOf(info: ApiKeyInfo): ApiKey {
  return {
    id: info.id,
    name: info.name,
    scope: scopeOf(info.scope),
    createdAt: info.createdAt,
    expiresAt: info.expiresAt,
    lastUsedAt: info.lastUsedAt,
    revokedAt: info.revokedAt,
    source: info.source,
  };
}

export function usageDayOf(row: UsageRow): UsageDay {
  return { ...row };
}
