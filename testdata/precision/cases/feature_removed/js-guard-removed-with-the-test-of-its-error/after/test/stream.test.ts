import { expect, test } from 'vitest';
import { Response } from '../source/stream';

test('pipes the chunks', () => {
  const r = new Response();
  r.chunks = ['a', 'b'];
  expect(r.pipe([])).toEqual(['a', 'b']);
});
