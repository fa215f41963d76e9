export function hoist(code: string) {
  if (code.includes('  vi.mock')) throw new Error('vi.mock is not at the top level')
  return code
}
