import { expect, test } from '@playwright/test'

test('trace stream', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByText('stream')).toBeVisible()
})
