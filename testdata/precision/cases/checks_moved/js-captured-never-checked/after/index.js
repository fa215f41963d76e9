export class HTTPError extends Error {}
export default async function got({hooks}) { let e = new HTTPError('404'); for (const h of hooks.beforeError) e = h(e); throw e; }
