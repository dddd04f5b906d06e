/** The lookup of a namespace the window has not read had to wait past too many others (cached-source.ts): no answer, no warning. */
export class ViewBusy extends Error {
  constructor() {
    super('too many namespaces being looked up at once');
    this.name = 'ViewBusy';
  }
}
