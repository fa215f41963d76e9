import test from 'ava';
import got, {HTTPError} from '../index.js';

test('catches HTTPErrors', async t => {
	t.plan(2);

	await t.throwsAsync(got({
		hooks: {
			beforeError: [
				error => {
					t.true(error instanceof HTTPError);
					return error;
				},
			],
		},
	}));
});
