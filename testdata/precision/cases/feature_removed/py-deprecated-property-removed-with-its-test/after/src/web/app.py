class App:
    def __init__(self, env="production"):
        self.config = {"ENV": env}
        self.rules = []

    def route(self, rule):
        self.rules.append(rule)
        return rule
