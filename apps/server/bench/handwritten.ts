/**
 * The baselines of `pnpm bench:api`: the API's reads and create written by hand on Fastify and `pg`
 * with prepared statements, answering the same JSON as the API, and a route answering from memory.
 * Each finds the caller as the API does (key by prefix, SHA-256 compared in constant time), in one
 * round trip per request: no cache.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';

interface KeyRow {
  id: string;
  account_id: string;
  secret_hash: string;
  plan: string;
  link_limit_override: number | null;
  scopes: string[];
}

interface LinkRow {
  id: string;
  slug: string;
  destination_url: string;
  title: string;
  external_id: string | null;
  comments: string | null;
  expires_at: Date | null;
  expiration_url: string | null;
  click_count: string;
  created_at: Date;
  domain_name?: string | null;
  tags?: { id: string; name: string; color: string }[];
}

const LINK_COLUMNS =
  'l.id, l.slug, l.destination_url, l.title, l.external_id, l.comments, l.expires_at, l.expiration_url, l.click_count, l.created_at, d.name as domain_name';
const TAGS = `coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
  from link_tag lt join tag t on t.id = lt.tag_id where lt.link_id = l.id), '[]') as tags`;

const KEY_BY_PREFIX = {
  name: 'hw_key',
  text: `select k.id, k.account_id, k.secret_hash, k.scopes, a.plan, a.link_limit_override
    from api_key k join account a on a.id = k.account_id
    where k.prefix = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`,
};
const LINK_BY_ID = {
  name: 'hw_link',
  text: `select ${LINK_COLUMNS}, ${TAGS} from link l left join domain d on d.id = l.domain_id where l.id = $1 and l.account_id = $2 and l.deleted_at is null`,
};
const LIVE_COUNT = { name: 'hw_count', text: 'select count(*) as total from link where account_id = $1 and deleted_at is null' };
const LINK_PAGE = {
  name: 'hw_page',
  text: `select ${LINK_COLUMNS}, ${TAGS} from link l left join domain d on d.id = l.domain_id where l.account_id = $1 and l.deleted_at is null
    order by l.created_at desc, l.id desc limit $2 offset $3`,
};
const LOCK_ACCOUNT = { name: 'hw_lock', text: 'select plan, link_limit_override from account where id = $1 for update' };
const INSERT_LINK = {
  name: 'hw_insert',
  text: `insert into link (id, account_id, slug, destination_url, title) values ($1, $2, $3, $4, $5)
    on conflict ((coalesce(domain_id, '')), slug) where deleted_at is null do nothing
    returning id, slug, destination_url, title, external_id, comments, expires_at, expiration_url, click_count, created_at`,
};
const NOTIFY = { name: 'hw_notify', text: "select pg_notify('shortlinks_link_changes', $1)" };

const PLAN_LINK_LIMITS: Record<string, number | null> = { starter: 1_000, trial: 1_000, team: 50_000, unlimited: null };

function toLink(row: LinkRow, shortDomain: string) {
  // A link on a branded domain is served there; the others on the server's own (docs/domains.md).
  const origin = row.domain_name ? `https://${row.domain_name}` : shortDomain;
  const link: Record<string, unknown> = {
    id: row.id,
    domain: new URL(origin).host,
    short_url: `${origin}/${row.slug}`,
    destination_url: row.destination_url,
    title: row.title,
    slug: row.slug,
    tags: row.tags ?? [],
    click_count: Number(row.click_count),
    created_at: row.created_at.getTime(),
  };
  if (row.external_id !== null) link.external_id = row.external_id;
  if (row.comments !== null) link.comments = row.comments;
  if (row.expires_at !== null) link.expires_at = row.expires_at.getTime();
  if (row.expiration_url !== null) link.expiration_url = row.expiration_url;
  return link;
}

/** The hand-written server: GET /links/:id, GET /links, POST /links. */
export async function handwrittenServer(databaseUrl: string, shortDomain: string, poolSize: number): Promise<FastifyInstance> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const app = Fastify({ logger: false });
  app.addHook('onClose', () => pool.end());

  async function caller(request: FastifyRequest, reply: FastifyReply, scope: 'links.read' | 'links.write'): Promise<KeyRow | undefined> {
    const secret = /^Bearer[ \t]+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
    if (secret?.startsWith('slk_')) {
      const sent = createHash('sha256').update(secret).digest();
      const { rows } = await pool.query<KeyRow>({ ...KEY_BY_PREFIX, values: [secret.slice(0, 12)] });
      const row = rows.find((r) => {
        const stored = Buffer.from(r.secret_hash, 'hex');
        return stored.length === sent.length && timingSafeEqual(stored, sent);
      });
      // The API's scope rule (X.write includes X.read), checked as it checks it.
      if (row && !row.scopes.includes(scope) && !(scope === 'links.read' && row.scopes.includes('links.write'))) {
        reply.code(403).send({ code: 'FORBIDDEN', message: `This key lacks the scope ${scope}` });
        return undefined;
      }
      if (row) return row;
    }
    reply.code(401).send({ code: 'UNAUTHORIZED', message: 'A valid API key is required' });
    return undefined;
  }

  app.get<{ Params: { id: string } }>('/api/v1/links/:id', async (request, reply) => {
    const key = await caller(request, reply, 'links.read');
    if (!key) return reply;
    const { rows } = await pool.query<LinkRow>({ ...LINK_BY_ID, values: [request.params.id, key.account_id] });
    const row = rows[0];
    if (!row) return reply.code(404).send({ code: 'LINK_NOT_FOUND', message: 'No such link' });
    return toLink(row, shortDomain);
  });

  app.get<{ Querystring: { page?: string; per_page?: string } }>('/api/v1/links', async (request, reply) => {
    const key = await caller(request, reply, 'links.read');
    if (!key) return reply;
    const page = Number(request.query.page ?? 1);
    const perPage = Number(request.query.per_page ?? 50);
    const [counted, links] = await Promise.all([
      pool.query<{ total: string }>({ ...LIVE_COUNT, values: [key.account_id] }),
      pool.query<LinkRow>({ ...LINK_PAGE, values: [key.account_id, perPage, (page - 1) * perPage] }),
    ]);
    return {
      links: links.rows.map((row) => toLink(row, shortDomain)),
      page,
      per_page: perPage,
      total: Number(counted.rows[0]?.total ?? 0),
      link_limit: key.link_limit_override ?? PLAN_LINK_LIMITS[key.plan] ?? null,
    };
  });

  // The same guarantees as the API's create: the account locked while its live links are counted
  // against its limit, the live slug unique (a random one retried), the change announced on commit.
  app.post<{ Body: { destination_url: string; title: string } }>('/api/v1/links', async (request, reply) => {
    const key = await caller(request, reply, 'links.write');
    if (!key) return reply;
    const url = new URL(request.body.destination_url);
    const client = await pool.connect();
    try {
      await client.query('begin');
      const account = (
        await client.query<{ plan: string; link_limit_override: number | null }>({ ...LOCK_ACCOUNT, values: [key.account_id] })
      ).rows[0];
      const limit = account?.link_limit_override ?? PLAN_LINK_LIMITS[account?.plan ?? ''] ?? null;
      if (limit !== null) {
        const counted = await client.query<{ total: string }>({ ...LIVE_COUNT, values: [key.account_id] });
        if (Number(counted.rows[0]?.total) >= limit) throw new Error('LINK_LIMIT_REACHED');
      }
      let row: LinkRow | undefined;
      for (let attempt = 0; attempt < 8 && !row; attempt++) {
        const id = `lnk_${randomBytes(12).toString('base64url')}`;
        const slug = randomBytes(5).toString('base64url');
        row = (await client.query<LinkRow>({ ...INSERT_LINK, values: [id, key.account_id, slug, url.href, request.body.title] })).rows[0];
      }
      if (!row) throw new Error('no free slug');
      await client.query({ ...NOTIFY, values: [row.slug] });
      await client.query('commit');
      return reply.code(201).send(toLink({ ...row, tags: [] }, shortDomain));
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  });
  return app;
}

/** A route answering a link from memory: the ceiling of Fastify itself. */
export function memoryServer(link: unknown): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/api/v1/links/:id', async () => link);
  return app;
}
