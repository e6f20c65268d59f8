// The statistics views: their own entry because they bring the chart library (uPlot) and its
// styles, and Plasmo's production build does not tree-shake: pages without charts carry neither.
// The styles are imported by AnalyticsView, not here: this barrel is free of side effects
// (package.json `sideEffects`), so a tree-shaking bundler (Vite) skips it and would drop them.

export { AccountAnalytics } from './AccountAnalytics.tsx';
export type { AnalyticsOptions } from './AnalyticsView.tsx';
export { LinkAnalytics } from './LinkAnalytics.tsx';
export { TagAnalytics } from './TagAnalytics.tsx';
