export function parse(u: string) {
  const url = new URL(u);
  return { path: url.pathname, hash: url.hash };
}
