export function parse(s) {
  const [type, name] = s.split(':')
  return { type, name, attrs: {} }
}
