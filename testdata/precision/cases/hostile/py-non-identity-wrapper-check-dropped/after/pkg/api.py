def post(url, data=None, files=None):
    if data is not None and files is not None and isinstance(data, str):
        raise ValueError("Data must not be a string.")
    return (url, data, files)
