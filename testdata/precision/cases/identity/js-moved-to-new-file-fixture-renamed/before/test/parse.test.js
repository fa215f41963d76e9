import { expect, test } from 'vitest'
import { parse } from '../src/parse.js'

test('parses an empty tag', () => {
  expect(parse(':')).toEqual({ type: '', name: '', attrs: {} })
})

test('parses a legacy tag', () => {
  expect(parse('Tag:a')).toEqual({ type: 'Tag', name: 'a', attrs: {} })
})
