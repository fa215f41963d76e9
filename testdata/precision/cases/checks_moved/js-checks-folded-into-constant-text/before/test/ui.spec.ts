import { expect, test } from '@playwright/test'

test.describe('ui', () => {
  test('basic', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByTestId('pass-entry')).toContainText('17 Pass')
    await expect(page.getByTestId('fail-entry')).toContainText('2 Fail')
    await expect(page.getByTestId('total-entry')).toContainText('19 Total')
  })
})
