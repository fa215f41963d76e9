export const sum = (a: number, b: number) => a - b
