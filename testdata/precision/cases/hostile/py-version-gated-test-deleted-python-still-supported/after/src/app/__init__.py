def run_async(func):
    return func()
