export const parse = (s) => Number(s)
export const version = () => 1
