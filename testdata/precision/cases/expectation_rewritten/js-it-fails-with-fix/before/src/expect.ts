export function onTestEnd(pending: Promise<unknown>[]) {
  if (pending.length) console.warn('assertion was not awaited')
  return Promise.all(pending)
}
