import type pg from 'pg';

/**
 * Distinct statement texts given a name; past this, statements run unnamed as before. The texts
 * come from the code's query shapes (and `in (…)` lists up to the request limits), so a few hundred
 * at most; the cap only guards against a shape that varies without bound.
 */
const MAX_NAMED_STATEMENTS = 2000;

/**
 * Turns every parameterised query of the pool's connections into a named prepared statement.
 *
 * PostgreSQL then parses and plans a statement once per connection instead of on every call:
 * measured directly, the API key lookup went from 4,200 to 11,000 queries/s and the link with its
 * tags from 3,000 to 6,900 (docs/performance.md). Kysely sends every value as a parameter, so one
 * query shape is one text, whatever its values; the name is tied to the text for the life of the
 * process, as `pg` requires. Queries without parameters (migrations, `select 1`) keep the simple
 * protocol: a named statement cannot hold several commands.
 */
export function namePreparedStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
      name = `shortlinks_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const named = (config: unknown, values?: unknown, callback?: unknown): unknown => {
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0 && typeof callback !== 'function') {
        const name = nameOf(config);
        if (name !== undefined) return query({ name, text: config, values });
      }
      return query(config, values, callback);
    };
    client.query = named as typeof client.query;
  });
}
