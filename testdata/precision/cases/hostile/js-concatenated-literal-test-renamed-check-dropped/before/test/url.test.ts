import { expect, test } from 'vitest';
import { parse } from '../src/url';

test('path is kept', () => {
  expect(parse('https://example.com/a/b').path).toBe('/a/b');
});

test('fragment characters', () => {
  const url = parse('https://example.com/#!$&()*+,;=' + ' abc :/[]@' + '?#');
  expect(url.path).toBe('/');
  expect(url.hash).toBe('#!$&()*+,;=%20abc%20:/[]@?#');
});
