import { expect, test } from 'vitest'
import { parse } from '../src/parse.js'

test('parses a named element', () => {
  expect(parse('Element:main')).toEqual({ type: 'Element', name: 'main', attrs: {} })
})
