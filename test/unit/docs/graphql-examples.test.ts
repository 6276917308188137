import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';

/*
 * The GraphQL operations README and docs/ show (their ```graphql blocks) are valid against the
 * published schema: an example that names a field or argument the API no longer has fails here.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const schema = buildSchema(readFileSync(path.join(ROOT, 'schema', 'schema.graphql'), 'utf8'));
const documents = ['README.md', ...readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];
const examples = documents.flatMap((file) =>
  [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map((m, i) => ({ name: `${file} #${i + 1}`, text: m[1]! })),
);

describe('the GraphQL examples of the documents', () => {
  it('are found (README and docs/API.md show operations)', () => {
    expect(examples.filter((e) => e.name.startsWith('README.md')).length).toBeGreaterThan(0);
    expect(examples.filter((e) => e.name.startsWith(path.join('docs', 'API.md'))).length).toBeGreaterThan(2);
  });

  it.each(examples.map((e) => [e.name, e.text] as const))('%s is valid against schema/schema.graphql', (_name, text) => {
    expect(validate(schema, parse(text)).map((e) => e.message)).toEqual([]);
  });

  it('would catch an example naming a field the schema lacks', () => {
    expect(validate(schema, parse('{ tracks(first: 1) { edges { node { tempoo } } } }')).length).toBeGreaterThan(0);
  });
});
