export function formatName(s: string) {
  return s.trim()
}
