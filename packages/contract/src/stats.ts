import { z } from 'zod';
import { LinkRefSchema } from './link.ts';
import { TagRefSchema } from './tag.ts';

/** Limits of the statistics endpoints (docs/statistics.md). */
export const STATS_LIMITS = {
  /** Without `start`, the range is the 30 days before `end`. */
  defaultDays: 30,
  /** The longest range (end − start) at `interval=hour`: 31 days, at most 745 hourly buckets. */
  maxHourRangeDays: 31,
  /** The longest range at `interval=day`: 400 days, at most 402 daily buckets. */
  maxDayRangeDays: 400,
  topDefault: 10,
  topMax: 100,
} as const;

export const STATS_INTERVALS = ['hour', 'day'] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

/** Latest accepted timestamp: 9999-12-31. */
const MAX_TIME = 253_402_300_799_999;

/**
 * An IANA zone name the runtime knows (`Europe/Berlin`, `America/St_Johns`, `UTC`). Offsets such
 * as `+05:30` and POSIX strings are refused: PostgreSQL reads them with the opposite sign.
 */
export function isTimeZoneName(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const timeField = (name: string) =>
  z.coerce
    .number<number>({ error: `${name} must be a number of Unix milliseconds` })
    .int(`${name} must be a whole number of Unix milliseconds`)
    .min(0, `${name} must not be before 1970`)
    .max(MAX_TIME, `${name} must be before the year 10000`)
    .optional();

/** Query of every statistics endpoint. The cross-field rules (start < end, longest range) are the service's. */
export const StatsQuerySchema = z.strictObject({
  start: timeField('start').meta({
    description: `Unix ms, inclusive; rounded down to the start of its bucket. Default: ${STATS_LIMITS.defaultDays} days before end.`,
    example: 1793000000000,
  }),
  end: timeField('end').meta({
    description: 'Unix ms, exclusive; rounded up to the end of its bucket. Default: now.',
    example: 1795592000000,
  }),
  interval: z
    .enum(STATS_INTERVALS, { error: 'interval must be hour or day' })
    .default('day')
    .meta({
      description: `Bucket size. At most ${STATS_LIMITS.maxHourRangeDays} days at hour, ${STATS_LIMITS.maxDayRangeDays} days at day.`,
    }),
  tz: z
    .string({ error: 'tz must be an IANA time zone such as Europe/Berlin' })
    .max(64, 'tz must be an IANA time zone such as Europe/Berlin')
    .refine(isTimeZoneName, 'tz must be an IANA time zone such as Europe/Berlin')
    .optional()
    .meta({ description: 'IANA time zone whose midnights start the day buckets. Default: UTC.', example: 'Europe/Berlin' }),
  top: z.coerce
    .number<number>({ error: `top must be a whole number from 1 to ${STATS_LIMITS.topMax}` })
    .int(`top must be a whole number from 1 to ${STATS_LIMITS.topMax}`)
    .min(1, `top must be a whole number from 1 to ${STATS_LIMITS.topMax}`)
    .max(STATS_LIMITS.topMax, `top must be a whole number from 1 to ${STATS_LIMITS.topMax}`)
    .default(STATS_LIMITS.topDefault)
    .meta({ description: 'Entries in each breakdown and in top_links.' }),
});

export const LinkStatsQuerySchema = StatsQuerySchema.extend({ id: LinkRefSchema });
export const TagStatsQuerySchema = StatsQuerySchema.extend({ id: TagRefSchema });

const counts = {
  clicks: z.number(),
  unique_visitors: z
    .number()
    .meta({ description: 'Visitors counted once per link and UTC day, in the hour of their first click (docs/statistics.md).' }),
};

export const StatsBucketSchema = z
  .object({ start: z.number().meta({ description: 'Unix ms of the bucket start.' }), ...counts })
  .meta({ id: 'StatsBucket' });

export const BreakdownEntrySchema = z
  .object({
    value: z.string().nullable().meta({ description: 'null: none or unknown (no referrer, unrecognised browser, unknown country).' }),
    clicks: z.number(),
  })
  .meta({ id: 'BreakdownEntry' });

export const CityEntrySchema = z
  .object({
    value: z.string().nullable().meta({ description: 'The city as the IP database names it (English); null unknown.' }),
    country: z.string().nullable().meta({ description: "ISO 3166-1 alpha-2 code of the city's country; null when the city is unknown." }),
    clicks: z.number(),
  })
  .meta({ id: 'CityEntry' });

/** What brought visitors: the link itself, or a scan of its QR code (`?qr=1`, docs/redirects.md). */
export const CLICK_TRIGGERS = ['link', 'qr'] as const;

export const BreakdownsSchema = z
  .object({
    start: z.number().meta({ description: 'Breakdowns are kept per UTC day: Unix ms of the first UTC day counted.' }),
    end: z.number().meta({ description: 'Unix ms of the end of the last UTC day counted (exclusive).' }),
    referrers: z.array(BreakdownEntrySchema).meta({ description: 'Referrer host; null for none.' }),
    devices: z.array(BreakdownEntrySchema).meta({ description: 'desktop, mobile, tablet or unknown.' }),
    browsers: z.array(BreakdownEntrySchema),
    operating_systems: z.array(BreakdownEntrySchema),
    countries: z.array(BreakdownEntrySchema).meta({
      description:
        'ISO 3166-1 alpha-2: from the trusted proxy header when set (CLICK_COUNTRY_HEADER), else from the IP database (GEOIP_DATABASE, DB-IP Lite by default); null unknown.',
    }),
    cities: z.array(CityEntrySchema).meta({
      description:
        "The visitor's city from the IP database, with its country (a trusted country header wins; a city outside it is unknown); null unknown.",
    }),
    triggers: z
      .array(BreakdownEntrySchema)
      .meta({ description: '`link` (the short link itself) or `qr` (a scan of its QR code, which carries `?qr=1`).' }),
  })
  .meta({ id: 'StatsBreakdowns' });

export const TopLinkSchema = z
  .object({ id: z.string(), slug: z.string(), short_url: z.string(), title: z.string(), clicks: z.number() })
  .meta({ id: 'TopLink' });

export const LinkStatsSchema = z
  .object({
    start: z.number().meta({ description: 'Unix ms: the start of the first bucket.' }),
    end: z.number().meta({ description: 'Unix ms: the end of the last bucket (exclusive).' }),
    interval: z.enum(STATS_INTERVALS),
    tz: z.string(),
    totals: z.object(counts).meta({ description: 'Sums of the series.' }),
    series: z.array(StatsBucketSchema).meta({ description: 'Every bucket of the range, oldest first; empty buckets are 0.' }),
    breakdowns: BreakdownsSchema,
  })
  .meta({
    id: 'LinkStats',
    example: {
      start: 1795478400000,
      end: 1795651200000,
      interval: 'day',
      tz: 'UTC',
      totals: { clicks: 12, unique_visitors: 9 },
      series: [
        { start: 1795478400000, clicks: 12, unique_visitors: 9 },
        { start: 1795564800000, clicks: 0, unique_visitors: 0 },
      ],
      breakdowns: {
        start: 1795478400000,
        end: 1795651200000,
        referrers: [
          { value: 'news.example.org', clicks: 8 },
          { value: null, clicks: 4 },
        ],
        devices: [
          { value: 'mobile', clicks: 7 },
          { value: 'desktop', clicks: 5 },
        ],
        browsers: [{ value: 'Safari', clicks: 12 }],
        operating_systems: [{ value: 'iOS', clicks: 12 }],
        countries: [{ value: 'DE', clicks: 12 }],
        cities: [
          { value: 'Berlin', country: 'DE', clicks: 10 },
          { value: null, country: null, clicks: 2 },
        ],
        triggers: [
          { value: 'link', clicks: 9 },
          { value: 'qr', clicks: 3 },
        ],
      },
    },
  });

export const GroupStatsSchema = LinkStatsSchema.extend({
  top_links: z.array(TopLinkSchema).meta({ description: 'Live links with the most clicks over the breakdown days.' }),
}).meta({ id: 'GroupStats' });

export type StatsQuery = z.infer<typeof StatsQuerySchema>;
export type LinkStats = z.infer<typeof LinkStatsSchema>;
export type GroupStats = z.infer<typeof GroupStatsSchema>;
export type StatsBucket = z.infer<typeof StatsBucketSchema>;
export type CityEntry = z.infer<typeof CityEntrySchema>;
export type BreakdownEntry = z.infer<typeof BreakdownEntrySchema>;
export type TopLink = z.infer<typeof TopLinkSchema>;
