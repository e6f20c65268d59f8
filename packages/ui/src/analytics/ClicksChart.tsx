/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import 'uplot/dist/uPlot.min.css';
import type { LinkStats } from '@shortlinks/client';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { axisLabels, axisTicks } from './axis.ts';
import type { Formats } from './format.ts';

export const CHART_COLOURS = { clicks: '#4f46e5', clicksFill: 'rgba(79, 70, 229, 0.12)', visitors: '#0891b2' } as const;

const HEIGHT = 220;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** Room one time label needs on the axis, in CSS pixels. */
const LABEL_SPACE = { hour: 64, day: 52 } as const;
/** Whole numbers only on the count axis: clicks come one at a time. */
const COUNT_STEPS = Array.from({ length: 10 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

/** Whether this browser draws on a canvas (a test DOM does not: the table alone is shown then). */
function canDraw(): boolean {
  return typeof ResizeObserver !== 'undefined' && Boolean(document.createElement('canvas').getContext?.('2d'));
}

/**
 * The series as an area (clicks) and a line (unique visitors), one point per bucket, drawn with
 * uPlot on a canvas. `onHover` gets the bucket under the pointer (null when it leaves). The
 * canvas is hidden from assistive technology: the table beside it holds the same figures.
 */
export function ClicksChart({ stats, formats, onHover }: { stats: LinkStats; formats: Formats; onHover(index: number | null): void }) {
  const container = useRef<HTMLDivElement>(null);
  const hover = useRef(onHover);
  hover.current = onHover;

  useEffect(() => {
    const element = container.current;
    if (!element || !canDraw()) return;
    const { series, interval, tz } = stats;
    const starts = series.map((bucket) => bucket.start);
    const count = series.length;
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        // Room on the right for the last time label, centred on the last bucket.
        padding: [12, 28, 0, 4],
        legend: { show: false },
        cursor: { drag: { x: false, y: false, setScale: false }, y: false, points: { size: 7 } },
        select: { show: false, left: 0, top: 0, width: 0, height: 0 },
        scales: {
          x: { time: false, range: () => (count > 1 ? [0, count - 1] : [-1, 1]) },
          y: { range: (_plot, _min, max) => [0, uPlot.rangeNum(0, Math.max(max, 4), 0.1, true)[1] ?? 4] },
        },
        axes: [
          {
            font: FONT,
            stroke: '#6b7280',
            size: 44,
            gap: 6,
            grid: { show: false },
            ticks: { stroke: '#e5e7eb', size: 4 },
            splits: (self) => axisTicks(starts, interval, tz, Math.floor(self.bbox.width / uPlot.pxRatio / LABEL_SPACE[interval])),
            values: (_self, splits) => axisLabels(starts, splits, interval, tz, formats),
          },
          {
            font: FONT,
            stroke: '#6b7280',
            gap: 6,
            incrs: COUNT_STEPS,
            space: 32,
            grid: { stroke: '#eef0f3', width: 1 },
            ticks: { show: false },
            size: (_self, values) => 14 + Math.max(1, ...(values ?? []).map((value) => String(value).length)) * 7,
            values: (_self, splits) => splits.map((value) => formats.count(value)),
          },
        ],
        series: [
          {},
          {
            label: 'Clicks',
            stroke: CHART_COLOURS.clicks,
            fill: CHART_COLOURS.clicksFill,
            width: 2,
            points: { show: count <= 62, size: 5 },
          },
          { label: 'Unique visitors', stroke: CHART_COLOURS.visitors, width: 2, points: { show: count <= 62, size: 5 } },
        ],
        hooks: { setLegend: [(self) => hover.current(self.legend.idx ?? null)] },
      },
      [starts.map((_, index) => index), series.map((bucket) => bucket.clicks), series.map((bucket) => bucket.unique_visitors)],
      element,
    );
    const resize = new ResizeObserver(() => {
      if (element.clientWidth > 0 && element.clientWidth !== plot.width) plot.setSize({ width: element.clientWidth, height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [stats, formats]);

  return <div className="clicks-chart" ref={container} aria-hidden="true" data-testid="clicks-chart" />;
}
