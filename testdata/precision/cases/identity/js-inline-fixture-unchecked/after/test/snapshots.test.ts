import { expect, test } from 'vitest'
