import { beforeEach } from 'vitest'

beforeEach(({ skip }) => skip())
