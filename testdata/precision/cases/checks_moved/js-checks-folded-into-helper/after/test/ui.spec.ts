import type { Page } from '@playwright/test'
import { expect, test } from '@playwright/test'

test.describe('ui', () => {
  test('basic', async ({ page }) => {
    await page.goto('/')
    await assertTestCounts(page, { pass: 17, fail: 2 })
  })
})

async function assertTestCounts(page: Page, options: { pass: number; fail: number }) {
  await expect(page.getByTestId('tests-entry'))
    .toContainText(`${options.pass} Pass ${options.fail} Fail ${options.pass + options.fail} Total`)
}
