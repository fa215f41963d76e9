import type { Page } from '@playwright/test'
import { test } from '@playwright/test'

test.describe('ui', () => {
  test('basic', async ({ page }) => {
    await page.goto('/')
    await assertTestCounts(page, { pass: 17, fail: 2 })
  })
})

async function assertTestCounts(page: Page, options: { pass: number; fail: number }) {
  await page.getByTestId('tests-entry').textContent()
}
