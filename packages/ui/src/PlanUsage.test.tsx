// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { PlanUsage } from './PlanUsage.tsx';

afterEach(cleanup);

describe('PlanUsage', () => {
  test('counts are written with the locale’s separators, and no limit is said as such', () => {
    const { rerender } = render(<PlanUsage label="links" used={1_234} limit={10_000} />);
    expect(screen.getByTestId('usage-links').textContent).toBe(`${(1_234).toLocaleString()} of ${(10_000).toLocaleString()} links`);
    rerender(<PlanUsage label="links" used={0} limit={null} />);
    expect(screen.getByTestId('usage-links').textContent).toBe('0 links · no limit');
  });
});
