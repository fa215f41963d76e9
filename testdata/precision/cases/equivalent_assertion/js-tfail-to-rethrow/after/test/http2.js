import test from 'ava';
import fetchIt from '../index.js';

test('http2', async t => {
	try {
		const {statusCode} = await fetchIt('https://localhost/');
		t.is(statusCode, 200);
	} catch (error) {
		if (!error.message.includes('install Node.js')) {
			throw error;
		}
	}

	t.pass();
});
