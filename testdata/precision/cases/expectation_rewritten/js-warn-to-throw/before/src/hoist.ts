export function hoist(code: string) {
  if (code.includes('  vi.mock')) console.warn('vi.mock is not at the top level')
  return code.replace(/^\s+vi\.mock/m, 'vi.mock')
}
