/**
 * The preamble of every entry point (the server, the worker, each CLI command, the schema
 * emitter): imported first, before anything that may load the GraphQL layer. type-graphql's
 * decorators read the decorator-metadata API when a class is declared, so the polyfill has to
 * be in place before the first such module loads, whichever command loads it. Lint requires
 * every entry point to import this module (.dependency-cruiser.cjs, `entry-preamble`).
 */
import 'reflect-metadata';
