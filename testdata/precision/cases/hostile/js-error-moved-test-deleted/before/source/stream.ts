export class Response {
  startedReading = false;
  chunks: string[] = [];

  pipe(dest: string[]): string[] {
    if (this.startedReading) {
      throw new Error('Failed to pipe. The response has been emitted already.');
    }
    this.startedReading = true;
    dest.push(...this.chunks);
    return dest;
  }
}
