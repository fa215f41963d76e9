export function requestOptions(url, options) {
	return Object.assign(options, {
		protocol: url.protocol,
		hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
		host: url.host,
		pathname: url.pathname,
		path: `${url.pathname || ''}${url.search || ''}`,
		...(url.port.length > 0 ? {port: Number(url.port)} : {}),
	});
}
