import { expect, test } from 'vitest'
test('file snapshot', () => { expect({ a: 1 }).toMatchSnapshot() })
