import test from 'ava';
import fetchIt from '../index.js';

test('http2', async t => {
	try {
		const {statusCode} = await fetchIt('https://localhost/');
		t.is(statusCode, 200);
		t.pass();
	} catch (error) {
		if (error.message.includes('install Node.js')) {
			t.pass();
			return;
		}

		t.fail(error.stack);
	}
});
