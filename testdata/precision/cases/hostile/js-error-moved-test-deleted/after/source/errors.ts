export const alreadyEmitted = () => new Error('Failed to pipe. The response has been emitted already.');
