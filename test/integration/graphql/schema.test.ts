import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType, isUnionType } from 'graphql';
import { graphQLSchema, schemaFilePath, schemaSdl } from '../../../src/http/graphql/graphql.schema';

const ROOT = path.resolve(__dirname, '../../..');
/** The output folders of codegen.yml: the tests' operations, the dashboard's, its admin pages'. */
const GENERATED = ['test/generated/', 'web/src/gql/'];

describe('the schema documents itself', () => {
  it('every type, field, argument and enum value of ours has a description (what Sandbox and codegen show)', () => {
    const schema = graphQLSchema();
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || (isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type)) for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
      if (isUnionType(type) && !type.description) missing.push(type.name);
    }
    expect(missing).toEqual([]);
  });
});

describe('committed GraphQL artefacts', () => {
  it('schema/schema.graphql is what the code builds (run `npm run schema` after changing a type)', async () => {
    expect(schemaFilePath()).toBe(path.join(ROOT, 'schema', 'schema.graphql'));
    const committed = await readFile(schemaFilePath(), 'utf8');
    expect(committed).toBe(schemaSdl(graphQLSchema()));
  });

  it(`${GENERATED.join(', ')} are what codegen.yml makes of the schema and the documents (run \`npm run codegen\`)`, async () => {
    // codegen cannot run inside Jest (its CLI loads ES modules), so run the committed config in a
    // child process with every output folder moved to a temporary one, and compare.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-codegen-'));
    try {
      let config = await readFile(path.join(ROOT, 'codegen.yml'), 'utf8');
      for (const [i, target] of GENERATED.entries()) {
        expect(config).toContain(`  ${target}:`);
        config = config.replace(`  ${target}:`, `  ${JSON.stringify(`${dir}/out${i}/`)}:`);
      }
      const moved = path.join(dir, 'codegen.yml');
      await writeFile(moved, config);
      await promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', 'graphql-codegen'), ['--config', moved, '--silent'], { cwd: ROOT });
      for (const [i, target] of GENERATED.entries()) {
        const out = path.join(dir, `out${i}`);
        const fresh = (await readdir(out)).sort();
        // test/generated/openapi.ts holds the REST document's types (codegen's second step; test/integration/rest/openapi.test.ts checks it).
        const committedFiles = (await readdir(path.join(ROOT, target))).filter((f) => target + f !== 'test/generated/openapi.ts').sort();
        expect({ target, files: committedFiles }).toEqual({ target, files: fresh });
        for (const file of fresh) {
          const committed = await readFile(path.join(ROOT, target, file), 'utf8');
          expect({ file: target + file, content: committed }).toEqual({ file: target + file, content: await readFile(path.join(out, file), 'utf8') });
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
