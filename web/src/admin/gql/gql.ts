/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "fragment ApiKeyRow on ApiKey {\n  id\n  name\n  scope\n  createdAt\n  expiresAt\n  lastUsedAt\n  revokedAt\n  source\n}\n\nquery ApiKeys {\n  apiKeys {\n    ...ApiKeyRow\n  }\n}\n\nmutation CreateApiKey($name: String!, $scope: ApiKeyScope, $expiresAt: DateTimeISO) {\n  createApiKey(name: $name, scope: $scope, expiresAt: $expiresAt) {\n    key\n    apiKey {\n      ...ApiKeyRow\n    }\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    ...ApiKeyRow\n  }\n}": typeof types.ApiKeyRowFragmentDoc,
    "query Usage($days: Int) {\n  usage(days: $days) {\n    keyId\n    name\n    day\n    requests\n    analyses\n  }\n}": typeof types.UsageDocument,
    "query Viewer {\n  viewer {\n    id\n    name\n    scope\n    expiresAt\n  }\n}": typeof types.ViewerDocument,
    "fragment WebhookRow on Webhook {\n  id\n  url\n  events\n  createdAt\n  disabledAt\n  disabledReason\n  consecutiveFailures\n}\n\nfragment DeliveryRow on WebhookDelivery {\n  id\n  event\n  attempt\n  status\n  responseStatus\n  durationMs\n  createdAt\n  nextAttemptAt\n}\n\nquery Webhooks($deliveries: Int) {\n  webhooks {\n    ...WebhookRow\n    deliveries(first: $deliveries) {\n      ...DeliveryRow\n    }\n  }\n}\n\nmutation CreateWebhook($url: String!, $events: [String!]) {\n  createWebhook(url: $url, events: $events) {\n    secret\n    webhook {\n      ...WebhookRow\n    }\n  }\n}\n\nmutation DeleteWebhook($id: ID!) {\n  deleteWebhook(id: $id)\n}\n\nmutation TestWebhook($id: ID!) {\n  testWebhook(id: $id) {\n    ...DeliveryRow\n  }\n}": typeof types.WebhookRowFragmentDoc,
};
const documents: Documents = {
    "fragment ApiKeyRow on ApiKey {\n  id\n  name\n  scope\n  createdAt\n  expiresAt\n  lastUsedAt\n  revokedAt\n  source\n}\n\nquery ApiKeys {\n  apiKeys {\n    ...ApiKeyRow\n  }\n}\n\nmutation CreateApiKey($name: String!, $scope: ApiKeyScope, $expiresAt: DateTimeISO) {\n  createApiKey(name: $name, scope: $scope, expiresAt: $expiresAt) {\n    key\n    apiKey {\n      ...ApiKeyRow\n    }\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    ...ApiKeyRow\n  }\n}": types.ApiKeyRowFragmentDoc,
    "query Usage($days: Int) {\n  usage(days: $days) {\n    keyId\n    name\n    day\n    requests\n    analyses\n  }\n}": types.UsageDocument,
    "query Viewer {\n  viewer {\n    id\n    name\n    scope\n    expiresAt\n  }\n}": types.ViewerDocument,
    "fragment WebhookRow on Webhook {\n  id\n  url\n  events\n  createdAt\n  disabledAt\n  disabledReason\n  consecutiveFailures\n}\n\nfragment DeliveryRow on WebhookDelivery {\n  id\n  event\n  attempt\n  status\n  responseStatus\n  durationMs\n  createdAt\n  nextAttemptAt\n}\n\nquery Webhooks($deliveries: Int) {\n  webhooks {\n    ...WebhookRow\n    deliveries(first: $deliveries) {\n      ...DeliveryRow\n    }\n  }\n}\n\nmutation CreateWebhook($url: String!, $events: [String!]) {\n  createWebhook(url: $url, events: $events) {\n    secret\n    webhook {\n      ...WebhookRow\n    }\n  }\n}\n\nmutation DeleteWebhook($id: ID!) {\n  deleteWebhook(id: $id)\n}\n\nmutation TestWebhook($id: ID!) {\n  testWebhook(id: $id) {\n    ...DeliveryRow\n  }\n}": types.WebhookRowFragmentDoc,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ApiKeyRow on ApiKey {\n  id\n  name\n  scope\n  createdAt\n  expiresAt\n  lastUsedAt\n  revokedAt\n  source\n}\n\nquery ApiKeys {\n  apiKeys {\n    ...ApiKeyRow\n  }\n}\n\nmutation CreateApiKey($name: String!, $scope: ApiKeyScope, $expiresAt: DateTimeISO) {\n  createApiKey(name: $name, scope: $scope, expiresAt: $expiresAt) {\n    key\n    apiKey {\n      ...ApiKeyRow\n    }\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    ...ApiKeyRow\n  }\n}"): (typeof documents)["fragment ApiKeyRow on ApiKey {\n  id\n  name\n  scope\n  createdAt\n  expiresAt\n  lastUsedAt\n  revokedAt\n  source\n}\n\nquery ApiKeys {\n  apiKeys {\n    ...ApiKeyRow\n  }\n}\n\nmutation CreateApiKey($name: String!, $scope: ApiKeyScope, $expiresAt: DateTimeISO) {\n  createApiKey(name: $name, scope: $scope, expiresAt: $expiresAt) {\n    key\n    apiKey {\n      ...ApiKeyRow\n    }\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    ...ApiKeyRow\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Usage($days: Int) {\n  usage(days: $days) {\n    keyId\n    name\n    day\n    requests\n    analyses\n  }\n}"): (typeof documents)["query Usage($days: Int) {\n  usage(days: $days) {\n    keyId\n    name\n    day\n    requests\n    analyses\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Viewer {\n  viewer {\n    id\n    name\n    scope\n    expiresAt\n  }\n}"): (typeof documents)["query Viewer {\n  viewer {\n    id\n    name\n    scope\n    expiresAt\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment WebhookRow on Webhook {\n  id\n  url\n  events\n  createdAt\n  disabledAt\n  disabledReason\n  consecutiveFailures\n}\n\nfragment DeliveryRow on WebhookDelivery {\n  id\n  event\n  attempt\n  status\n  responseStatus\n  durationMs\n  createdAt\n  nextAttemptAt\n}\n\nquery Webhooks($deliveries: Int) {\n  webhooks {\n    ...WebhookRow\n    deliveries(first: $deliveries) {\n      ...DeliveryRow\n    }\n  }\n}\n\nmutation CreateWebhook($url: String!, $events: [String!]) {\n  createWebhook(url: $url, events: $events) {\n    secret\n    webhook {\n      ...WebhookRow\n    }\n  }\n}\n\nmutation DeleteWebhook($id: ID!) {\n  deleteWebhook(id: $id)\n}\n\nmutation TestWebhook($id: ID!) {\n  testWebhook(id: $id) {\n    ...DeliveryRow\n  }\n}"): (typeof documents)["fragment WebhookRow on Webhook {\n  id\n  url\n  events\n  createdAt\n  disabledAt\n  disabledReason\n  consecutiveFailures\n}\n\nfragment DeliveryRow on WebhookDelivery {\n  id\n  event\n  attempt\n  status\n  responseStatus\n  durationMs\n  createdAt\n  nextAttemptAt\n}\n\nquery Webhooks($deliveries: Int) {\n  webhooks {\n    ...WebhookRow\n    deliveries(first: $deliveries) {\n      ...DeliveryRow\n    }\n  }\n}\n\nmutation CreateWebhook($url: String!, $events: [String!]) {\n  createWebhook(url: $url, events: $events) {\n    secret\n    webhook {\n      ...WebhookRow\n    }\n  }\n}\n\nmutation DeleteWebhook($id: ID!) {\n  deleteWebhook(id: $id)\n}\n\nmutation TestWebhook($id: ID!) {\n  testWebhook(id: $id) {\n    ...DeliveryRow\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;