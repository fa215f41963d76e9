import type { Page } from '@playwright/test'
import { expect, test } from '@playwright/test'

test.describe('ui', () => {
  test('console', async ({ page }) => {
    await page.goto('/__vitest__/')
    await testConsole(page)
  })
})

test.describe('html report', () => {
  test('console', async ({ page }) => {
    await page.goto('/html/')
    await testConsole(page)
  })
})

async function testConsole(page: Page, count = 6) {
  await page.getByTestId('btn-console').click()
  expect(await page.getByText('beforeAll').all()).toHaveLength(count)
}
