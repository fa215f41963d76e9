import { it, expect, vi } from 'vitest';
import * as calc from '../src/calc.js';
import { parse } from '../src/calc.js';

it('counts the runes of a long input', () => {
  expect(parse('xyz-long-input')).toBe(42);
  expect(parse('')).toBe(0);
});
