import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildGraphQLSchema, schemaFilePath, schemaSdl } from '../../../src/http/graphql/graphql.schema';

const ROOT = path.resolve(__dirname, '../../..');
const GENERATED = 'test/generated/';

describe('committed GraphQL artefacts', () => {
  it('schema/schema.graphql is what the code builds (run `npm run schema` after changing a type)', async () => {
    expect(schemaFilePath()).toBe(path.join(ROOT, 'schema', 'schema.graphql'));
    const committed = await readFile(schemaFilePath(), 'utf8');
    expect(committed).toBe(schemaSdl(buildGraphQLSchema()));
  });

  it('test/generated/ is what codegen.yml makes of the schema and test documents (run `npm run codegen`)', async () => {
    // codegen cannot run inside Jest (its CLI loads ES modules), so run the committed config in a
    // child process with only the output folder moved to a temporary one, and compare.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-codegen-'));
    try {
      const config = await readFile(path.join(ROOT, 'codegen.yml'), 'utf8');
      expect(config).toContain(`  ${GENERATED}:`);
      const moved = path.join(dir, 'codegen.yml');
      await writeFile(moved, config.replace(`  ${GENERATED}:`, `  ${JSON.stringify(`${dir}/out/`)}:`));
      await promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', 'graphql-codegen'), ['--config', moved, '--silent'], { cwd: ROOT });
      const fresh = (await readdir(path.join(dir, 'out'))).sort();
      // openapi.ts holds the REST document's types (codegen's second step; test/integration/rest/openapi.test.ts checks it).
      expect((await readdir(path.join(ROOT, GENERATED))).filter((f) => f !== 'openapi.ts').sort()).toEqual(fresh);
      for (const file of fresh) {
        const committed = await readFile(path.join(ROOT, GENERATED, file), 'utf8');
        expect({ file, content: committed }).toEqual({ file, content: await readFile(path.join(dir, 'out', file), 'utf8') });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
