export function parse (s) { return Number(s) }
