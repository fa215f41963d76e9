import type { Page } from '@playwright/test'
import { expect, test } from '@playwright/test'

test.describe('ui', () => {
  test('basic', async ({ page }) => {
    await page.goto('/')
  })
})

export async function assertTitle(page: Page) {
  await expect(page.getByTestId('title')).toContainText('Vitest')
  await expect(page.getByTestId('footer')).toContainText('MIT')
  await expect(page.getByTestId('header')).toContainText('UI')
}
