import { expect, test } from '@playwright/test'

test.describe('ui', () => {
  test('basic', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByTestId('pass-entry')).toContainText('17 Pass')
    await expect(page.getByTestId('suite-pass-entry')).toContainText('4 Pass')
    await expect(page.getByTestId('file-pass-entry')).toContainText('2 Pass')
  })
})
