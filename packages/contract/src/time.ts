/** Lengths of time in milliseconds, as the statistics and expiry rules count them (UTC). */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
