import urlToOptions from './utils/url-to-options.js';

export function requestOptions(url, options) {
	return Object.assign(options, urlToOptions(url));
}
