export class Response {
  startedReading = false;
  chunks: string[] = [];

  pipe(dest: string[]): string[] {
    if (this.startedReading) {
      throw new Error('Cannot pipe: the response was read before.');
    }
    this.startedReading = true;
    dest.push(...this.chunks);
    return dest;
  }
}
