/**
 * Where a view's charts go. ANALYTICS: replaced by the analytics components of `@shortlinks/ui/analytics`
 * (LinkAnalytics, TagAnalytics, AccountAnalytics) once they are in the workspace; until then the
 * view says so instead of drawing anything that is not real data.
 */
export function AnalyticsPending({ of }: { of: 'link' | 'tag' | 'account' }) {
  return (
    <section className="panel analytics-pending" aria-label="Statistics" data-testid={`analytics-${of}`}>
      <p className="muted">Charts of clicks over time, referrers, countries and devices will appear here.</p>
    </section>
  );
}
