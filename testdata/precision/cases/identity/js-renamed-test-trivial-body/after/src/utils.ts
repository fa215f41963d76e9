export function track(p) { throw new Error('not awaited') }
