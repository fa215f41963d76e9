export function track(p) { console.warn('not awaited'); return p }
