/*
 * Jest's module runtime, with V8's code cache kept between the test files a worker runs.
 *
 * Jest gives every test file a fresh module registry, so each file compiles the same sources
 * again: express, GraphQL, kysely, zod and the project's own modules, about 1,800 modules for a
 * file that builds an app. V8 does not reuse a compilation made by `vm.compileFunction` (Jest's
 * way of compiling a module), but it accepts the code cache of an earlier compilation of the same
 * source. This worker keeps, per file name, the source and the cache its first compilation
 * produced, and passes that cache to the next compilation of the same source. V8 checks the cache
 * against the source and its own flags, and compiles afresh when it does not fit; a module whose
 * source changed is compiled afresh and its cache replaced. Each module still runs anew in each
 * test file: only the parsing and compiling are shared.
 */
const vm = require('node:vm');

const compileFunction = vm.compileFunction;
/** @type {Map<string, { code: string, data: Buffer }>} */
const cache = new Map();

vm.compileFunction = function compileWithCache(code, params, options) {
  const filename = options?.filename;
  if (!filename || options.cachedData || options.produceCachedData) return compileFunction(code, params, options);
  const kept = cache.get(filename);
  if (kept && kept.code === code) {
    const fn = compileFunction(code, params, { ...options, cachedData: kept.data });
    if (!fn.cachedDataRejected) return fn;
  }
  const fn = compileFunction(code, params, { ...options, produceCachedData: true });
  if (fn.cachedData) cache.set(filename, { code, data: fn.cachedData });
  return fn;
};

module.exports = require('jest-runtime');
