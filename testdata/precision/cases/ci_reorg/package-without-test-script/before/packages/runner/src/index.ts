export function startTests() {}
