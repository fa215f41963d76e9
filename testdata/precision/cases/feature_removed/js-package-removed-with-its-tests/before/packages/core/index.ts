export function request(url: string): string {
  return `GET ${url}`;
}
