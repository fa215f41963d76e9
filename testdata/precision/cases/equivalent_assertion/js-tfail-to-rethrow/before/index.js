export default async function fetchIt(url) { return {statusCode: 200, body: url}; }
