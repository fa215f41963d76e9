import warnings


class App:
    def __init__(self, env="production"):
        self.config = {"ENV": env}
        self.rules = []

    @property
    def env(self):
        warnings.warn(
            "'app.env' is deprecated and will be removed in Web 2.3.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.config["ENV"]

    def route(self, rule):
        self.rules.append(rule)
        return rule
