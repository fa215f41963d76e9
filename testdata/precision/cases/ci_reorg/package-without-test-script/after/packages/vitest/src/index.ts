export const run = () => {}
