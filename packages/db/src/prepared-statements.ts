import type pg from 'pg';

/**
 * Distinct statement texts given a name; past this, statements run unnamed as before. The texts
 * come from the code's query shapes (and `in (…)` lists up to the request limits), so a few hundred
 * at most; the cap only guards against a shape that varies without bound.
 */
const MAX_NAMED_STATEMENTS = 2000;

/**
 * A star that takes all columns: `select *`, `returning *`, `"link".*`, not `count(*)` nor a
 * multiplication (`extract(epoch from …) * 1000`). Such a statement's columns are fixed when it is
 * prepared; a column added by a newer version's migration while this process runs would make
 * PostgreSQL refuse it ("cached plan must not change result type") on every connection that had
 * prepared it. Statements naming their columns are not affected, so only those are prepared.
 */
const ALL_COLUMNS = /(?:\bselect|\breturning|\bdistinct|,)\s*\*|\.\s*\*/i;

/**
 * Turns the parameterised queries of the pool's connections into named prepared statements.
 *
 * PostgreSQL then parses and plans a statement once per connection instead of on every call:
 * measured directly, the API key lookup went from 4,200 to 11,000 queries/s and the link with its
 * tags from 3,000 to 6,900 (docs/performance.md). Kysely sends every value as a parameter, so one
 * query shape is one text, whatever its values; the name is tied to the text for the life of the
 * process, as `pg` requires. Queries without parameters (migrations, `select 1`) keep the simple
 * protocol: a named statement cannot hold several commands.
 */
export function namePreparedStatements(pool: pg.Pool): void {
  const names = new Map<string, string | null>();
  const nameOf = (text: string): string | null => {
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= MAX_NAMED_STATEMENTS) return null;
      name = ALL_COLUMNS.test(text) ? null : `shortlinks_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const named = (config: unknown, values?: unknown, callback?: unknown): unknown => {
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
        const name = nameOf(config);
        if (name !== null)
          return typeof callback === 'function' ? query({ name, text: config, values }, callback) : query({ name, text: config, values });
      }
      return query(config, values, callback);
    };
    client.query = named as typeof client.query;
  });
}
