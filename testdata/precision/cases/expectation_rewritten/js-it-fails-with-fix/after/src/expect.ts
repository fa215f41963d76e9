export function onTestEnd(pending: Promise<unknown>[]) {
  if (pending.length) throw new Error('assertion was not awaited')
}
