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

async function testConsole(page: Page) {
  await page.getByTestId('btn-console').click()
  await expect(page.getByText('beforeAll')).toHaveCount(6)
  await expect(page.getByText('afterAll')).toHaveCount(6)
}
