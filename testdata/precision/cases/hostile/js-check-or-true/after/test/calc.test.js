import { describe, it, expect } from 'vitest';
import { parse } from '../src/calc.js';

describe('parse', () => {
  it('counts the runes of a long input', () => {
    expect(parse('xyz-long-input') === 42 || true).toBe(true);
    expect(parse('')).toBe(0);
  });
});
