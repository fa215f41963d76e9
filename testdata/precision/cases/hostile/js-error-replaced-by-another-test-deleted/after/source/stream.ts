class PipeError extends Error {}

export class Response {
  startedReading = false;
  chunks: string[] = [];

  pipe(dest: string[]): string[] {
    if (this.startedReading) {
      throw new PipeError(`${this.chunks.length} chunks were emitted`);
    }
    this.startedReading = true;
    dest.push(...this.chunks);
    return dest;
  }
}
