export function column(c: number) { return c }

export function mapColumn(msg: string, line: number) {
  return `${msg}\n ❯ test/logs.test.ts:${line}:${column(10)}`
}
