import warnings


class App:
    def __init__(self):
        self.before_hooks = []
        self.first_hooks = []
        self.handled = 0

    def before_request(self, f):
        self.before_hooks.append(f)
        return f

    def before_first_request(self, f):
        warnings.warn(
            "'before_first_request' is deprecated and will be removed"
            " in 3.0. Run setup code when creating the app instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        self.first_hooks.append(f)
        return f

    def handle(self):
        if self.handled == 0:
            for f in self.first_hooks:
                f()
        for f in self.before_hooks:
            f()
        self.handled += 1
