import test from 'ava';
import got, {HTTPError} from '../index.js';

test('catches HTTPErrors', async t => {
	let capturedError;

	await t.throwsAsync(got({
		hooks: {
			beforeError: [
				error => {
					capturedError = error;
					return error;
				},
			],
		},
	}));

	t.true(capturedError instanceof HTTPError);
});
