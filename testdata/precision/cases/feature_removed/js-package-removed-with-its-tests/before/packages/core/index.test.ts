import { expect, test } from 'vitest';
import { request } from './index';

test('request builds a GET line', () => {
  expect(request('/x')).toBe('GET /x');
});
