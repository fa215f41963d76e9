import { expect, test } from 'vitest';
import { Response } from '../source/stream';

test('pipes the chunks', () => {
  const r = new Response();
  r.chunks = ['a', 'b'];
  expect(r.pipe([])).toEqual(['a', 'b']);
});

test('throws when trying to proxy through a closed stream', () => {
  const r = new Response();
  r.pipe([]);
  expect(() => r.pipe([])).toThrow('Failed to pipe. The response has been emitted already.');
});
