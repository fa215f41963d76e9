import test from 'ava';
import {FormData as FormDataNode} from 'formdata-node';
import {FormDataEncoder} from 'form-data-encoder';
import FormData from 'form-data';
import got from '../index.js';

test('form-data manual `content-type` header', async t => {
	const form = new FormData();
	form.append('a', 'b');
	const {body} = await got.post({headers: {'content-type': 'custom'}, body: form});
	const headers = JSON.parse(body);
	t.is(headers['content-type'], 'custom');
});

test('form-data automatic `content-type` header', async t => {
	const form = new FormData();
	form.append('a', 'b');
	const {body} = await got.post({body: form});
	const headers = JSON.parse(body);
	t.is(headers['content-type'], `multipart/form-data; boundary=${form.getBoundary()}`);
});

test('form-data sets `content-length` header', async t => {
	const form = new FormData();
	form.append('a', 'b');
	const {body} = await got.post({body: form});
	const headers = JSON.parse(body);
	t.is(headers['content-length'], '157');
});

test('sets `content-type` header for spec-compliant FormData', async t => {
	const form = new FormDataNode();
	form.set('a', 'b');
	const {body} = await got.post({body: form});
	const headers = JSON.parse(body);
	t.true(headers['content-type'].startsWith('multipart/form-data'));
});

test('sets `content-length` header for spec-compliant FormData', async t => {
	const form = new FormDataNode();
	form.set('a', 'b');
	const encoder = new FormDataEncoder(form);
	const {body} = await got.post({body: form});
	const headers = JSON.parse(body);
	t.is(headers['content-length'], encoder.headers['Content-Length']);
});

test('manual `content-type` header should be allowed with spec-compliant FormData', async t => {
	const form = new FormDataNode();
	form.set('a', 'b');
	const {body} = await got.post({headers: {'content-type': 'custom'}, body: form});
	const headers = JSON.parse(body);
	t.is(headers['content-type'], 'custom');
});
