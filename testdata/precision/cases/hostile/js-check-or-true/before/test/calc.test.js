import { describe, it, expect } from 'vitest';
import { parse } from '../src/calc.js';

describe('parse', () => {
  it('counts the runes of a long input', () => {
    expect(parse('xyz-long-input')).toBe(42);
    expect(parse('')).toBe(0);
  });
});
