import { it, expect, vi } from 'vitest';
import * as calc from '../src/calc.js';
import { parse } from '../src/calc.js';

it('counts the runes of a long input', () => {
  const expected = parse('xyz-long-input');
  expect(parse('xyz-long-input')).toBe(expected);
  expect(parse('')).toBe(0);
});
