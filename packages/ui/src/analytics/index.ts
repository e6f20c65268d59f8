// The statistics views: their own entry because they bring the chart library (uPlot) and its
// styles, and Plasmo's production build does not tree-shake: pages without charts carry neither.
import './analytics.css';

export { AccountAnalytics } from './AccountAnalytics.tsx';
export type { AnalyticsOptions } from './AnalyticsView.tsx';
export { LinkAnalytics } from './LinkAnalytics.tsx';
export { TagAnalytics } from './TagAnalytics.tsx';
