export const greet = (n) => `hello ${n}`
export const shout = (s) => s
