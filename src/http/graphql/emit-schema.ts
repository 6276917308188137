import '../../entry';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { graphQLSchema, schemaFilePath, schemaSdl } from './graphql.schema';

/** `npm run schema`: writes schema/schema.graphql from the code (a test fails when they differ). */
function main(): void {
  const file = schemaFilePath();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, schemaSdl(graphQLSchema()));
  process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
}

main();
