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

  test('the noun agrees with the number beside it: “1 link”, never “1 links”', () => {
    const { rerender } = render(<PlanUsage label="links" used={1} limit={null} />);
    expect(screen.getByTestId('usage-links').textContent).toBe('1 link · no limit');
    rerender(<PlanUsage label="links" used={1} limit={1_000} />);
    expect(screen.getByTestId('usage-links').textContent).toBe(`1 of ${(1_000).toLocaleString()} links`);
    rerender(<PlanUsage label="tags" used={0} limit={1} />);
    expect(screen.getByTestId('usage-tags').textContent).toBe('0 of 1 tag');
  });
});
