import test from 'ava';
import got from '../index.js';

test('sets `content-type` header for native FormData', async t => {
	const form = new globalThis.FormData();
	form.set('a', 'b');
	const {body} = await got.post({body: form});
	const headers = JSON.parse(body);
	t.true(headers['content-type'].startsWith('multipart/form-data'));
});

test('native FormData uses chunked transfer-encoding instead of content-length', async t => {
	const form = new globalThis.FormData();
	form.set('a', 'b');
	const {body} = await got.post({body: form});
	const headers = JSON.parse(body);
	t.is(headers['content-length'], undefined);
	t.is(headers['transfer-encoding'], 'chunked');
});

test('manual `content-type` header should be allowed with native FormData', async t => {
	const form = new globalThis.FormData();
	form.set('a', 'b');
	const {body} = await got.post({headers: {'content-type': 'custom'}, body: form});
	const headers = JSON.parse(body);
	t.is(headers['content-type'], 'custom');
});
