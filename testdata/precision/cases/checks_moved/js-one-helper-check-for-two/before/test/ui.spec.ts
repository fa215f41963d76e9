import { expect, test } from '@playwright/test'

test.describe('ui', () => {
  test('console', async ({ page }) => {
    await page.goto('/__vitest__/')
    await page.getByTestId('btn-console').click()
    expect(await page.getByText('beforeAll').all()).toHaveLength(6)
    expect(await page.getByText('afterAll').all()).toHaveLength(6)
  })
})
