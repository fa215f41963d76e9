// text kept a literal a string on old runtimes.
export function text(s) {
  return s;
}

export const noop = () => {};
