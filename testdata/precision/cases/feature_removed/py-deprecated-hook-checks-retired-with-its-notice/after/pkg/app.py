class App:
    def __init__(self):
        self.before_hooks = []
        self.handled = 0

    def before_request(self, f):
        self.before_hooks.append(f)
        return f

    def handle(self):
        for f in self.before_hooks:
            f()
        self.handled += 1
