import { it } from 'vitest'

it('vitest doesnt fail when running empty files', async () => {})
