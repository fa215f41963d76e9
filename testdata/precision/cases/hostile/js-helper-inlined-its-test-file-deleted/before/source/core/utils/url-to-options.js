export default function urlToOptions(url) {
	const options = {
		protocol: url.protocol,
		hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
		host: url.host,
		pathname: url.pathname,
		path: `${url.pathname || ''}${url.search || ''}`,
	};

	if (url.port.length > 0) {
		options.port = Number(url.port);
	}

	return options;
}
