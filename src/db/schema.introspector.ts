import { PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

/** Kysely's own bookkeeping tables (the migrator's), left out unless asked for. */
const KYSELY_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

interface ColumnRow {
  table: string;
  schema: string;
  type: string;
  column: string;
  dataType: string;
  notNull: boolean;
  hasDefault: boolean;
}

/**
 * Postgres introspection of the connection's own schema (the first of its search_path:
 * DATABASE_SCHEMA, or `public`). Kysely's reads every schema of the database, calling
 * privilege and sequence functions on each: in a database shared by many schemas (one per
 * deployment, one per test run) a start reads them all, and fails when one is dropped while it
 * reads ("schema … does not exist"). The migrator asks only whether its own tables exist here.
 */
export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(this.db);
    return rows.flatMap((r) => (r.name === null ? [] : [{ name: r.name }]));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.table_name as "table", c.table_schema as "schema", t.table_type as "type", c.column_name as "column",
        c.udt_name as "dataType", c.is_nullable = 'NO' as "notNull", c.column_default is not null as "hasDefault"
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema()
      order by c.table_name, c.ordinal_position`.execute(this.db);
    const tables = new Map<string, { name: string; schema: string; isView: boolean; columns: TableMetadata['columns'][number][] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) tables.set(r.table, (table = { name: r.table, schema: r.schema, isView: r.type === 'VIEW', columns: [] }));
      table.columns.push({ name: r.column, dataType: r.dataType, isNullable: !r.notNull, isAutoIncrementing: false, hasDefaultValue: r.hasDefault });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** Kysely's Postgres dialect with the introspection of the connection's own schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
