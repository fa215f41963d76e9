import test from 'ava';
import urlToOptions from '../source/core/utils/url-to-options.js';

test('converts URL to options', t => {
	const options = urlToOptions(new URL('https://github.com/say?hello=world'));
	t.deepEqual(options, {
		protocol: 'https:',
		hostname: 'github.com',
		host: 'github.com',
		pathname: '/say',
		path: '/say?hello=world',
	});
});

test('converts IPv6 URL to options', t => {
	const options = urlToOptions(new URL('https://[2001:cdba::3257:9652]:443/'));
	t.is(options.hostname, '2001:cdba::3257:9652');
});
