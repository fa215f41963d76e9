import { expect, test } from '@playwright/test'

test('trace view', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByText('trace')).toBeVisible()
})
