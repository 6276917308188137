/*
 * The REST API's OpenAPI document, from the code that serves it:
 *   npm run openapi -- [--out <file>]   writes it (stdout by default), e.g. for openapi-typescript
 *   npm run openapi -- --lint           lints it with Redocly's recommended rules; exit 1 on an error
 *   npm run openapi -- --types <file>   writes its TypeScript types (openapi-typescript), as
 *                                       test/generated/openapi.ts holds them (npm run codegen)
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openApiDocument, packageVersion } from '../src/http/rest/openapi.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, lint: { type: 'boolean' }, types: { type: 'string' }, server: { type: 'string' } } });
const text = JSON.stringify(openApiDocument({ version: packageVersion(), serverUrl: values.server ?? 'http://127.0.0.1:4000' }), null, 2);

// Redocly and openapi-typescript are loaded only by the mode that uses them (each costs about a
// second of CPU to load).
if (values.lint) {
  const { createConfig, lintFromString } = await import('@redocly/openapi-core');
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
  for (const p of problems) {
    const where = p.location.map((l) => l.pointer).join(', ');
    process.stdout.write(`${p.severity} ${p.ruleId}: ${p.message} (${where})\n`);
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  process.stdout.write(`openapi.json: ${errors} errors, ${problems.length - errors} warnings (Redocly recommended)\n`);
  process.exitCode = errors > 0 ? 1 : 0;
} else if (values.types) {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  writeFileSync(values.types, astToString(await openapiTS(text)));
} else if (values.out) {
  writeFileSync(values.out, `${text}\n`);
} else {
  process.stdout.write(`${text}\n`);
}
