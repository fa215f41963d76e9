import { test } from 'vitest'

test('can get actual http-client', async () => {})
