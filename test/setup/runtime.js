/*
 * Jest's module runtime, with V8's code cache kept between the test files a worker runs.
 *
 * Jest gives every test file a fresh module registry, so each file compiles the same sources
 * again: express, GraphQL, kysely, zod and the project's own modules, about 1,800 modules for a
 * file that builds an app. V8 does not reuse what `vm.compileFunction` (Jest's way of compiling a
 * module) compiled, but it accepts a code cache: the bytecode of an earlier compilation of the
 * same source, including the functions that compilation went on to compile as they ran.
 *
 * So each module is compiled here as a script holding the function Jest asks for (the wrapper on
 * a line of its own, counted as line 0, so lines and columns stay the source's). The first test
 * file to load a module compiles it; the next one takes the code cache of that first script,
 * which by then holds every function the first file ran, and later files reuse it. V8 checks the
 * cache against the source and its own flags and compiles afresh when it does not fit; a module
 * whose source changed is compiled afresh and kept anew. Each module still runs anew in each
 * test file, in that file's context: only parsing and compiling are shared. About a fifth less
 * CPU for a file that builds an app.
 */
const vm = require('node:vm');

const compileFunction = vm.compileFunction;
/** @type {Map<string, { code: string, script: vm.Script, data?: Buffer }>} */
const compiled = new Map();

vm.compileFunction = function compileWithCodeCache(code, params, options) {
  const filename = options?.filename;
  const context = options?.parsingContext;
  if (!filename || !context || options.cachedData || options.produceCachedData || options.contextExtensions?.length) {
    return compileFunction(code, params, options);
  }
  let kept = compiled.get(filename);
  if (kept && kept.code !== code) kept = undefined;
  if (kept && !kept.data) kept.data = kept.script.createCachedData();
  const script = new vm.Script(`(function (${params.join(', ')}) {\n${code}\n})`, {
    filename,
    lineOffset: -1,
    ...(kept?.data ? { cachedData: kept.data } : {}),
    ...(options.importModuleDynamically ? { importModuleDynamically: options.importModuleDynamically } : {}),
  });
  if (!kept || script.cachedDataRejected) compiled.set(filename, { code, script });
  return script.runInContext(context);
};

module.exports = require('jest-runtime');
