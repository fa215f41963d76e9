const isLegacyFormData = body => body && typeof body.getBoundary === 'function';

export default {
	async post({headers = {}, body}) {
		if (isLegacyFormData(body)) {
			headers['content-type'] ??= `multipart/form-data; boundary=${body.getBoundary()}`;
		}

		headers['content-type'] ??= 'multipart/form-data; boundary=x';
		return {body: JSON.stringify(headers)};
	},
};
