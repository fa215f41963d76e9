export function column(c: number) { return c + 1 }
