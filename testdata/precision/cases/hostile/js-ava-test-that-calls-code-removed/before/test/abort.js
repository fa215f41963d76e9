import test from 'ava';
import {request} from '../source/index.js';

if (globalThis.AbortController !== undefined) {
	test('aborts a request', async t => {
		const controller = new AbortController();
		const p = request('http://example.com', {signal: controller.signal});
		controller.abort();
		await t.throwsAsync(p, {code: 'ERR_ABORTED'});
	});
} else {
	test('x', t => {
		request('http://example.com');
		t.pass();
	});
}
