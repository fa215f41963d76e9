export class Response {
  chunks: string[] = [];

  pipe(dest: string[]): string[] {
    dest.push(...this.chunks);
    return dest;
  }
}
