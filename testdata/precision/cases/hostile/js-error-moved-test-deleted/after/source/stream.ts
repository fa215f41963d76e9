import { alreadyEmitted } from './errors';

export class Response {
  startedReading = false;
  chunks: string[] = [];

  pipe(dest: string[]): string[] {
    if (this.startedReading) throw alreadyEmitted();
    this.startedReading = true;
    dest.push(...this.chunks);
    return dest;
  }
}
