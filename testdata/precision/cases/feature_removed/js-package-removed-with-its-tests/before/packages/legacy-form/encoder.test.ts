import { expect, test } from 'vitest';
import { encodeForm } from './encoder';

test('escapes keys and values', () => {
  expect(encodeForm({ 'a b': 'c&d' })).toBe('a%20b=c%26d');
});
