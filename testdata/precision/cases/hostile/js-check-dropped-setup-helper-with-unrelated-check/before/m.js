export const parse = (s) => Number(s)
export const config = { mode: "test" }
