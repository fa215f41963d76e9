class Strict:
    def parse(self, s):
        if not s:
            raise ValueError("empty input")
        return s.split(",")


class Loose:
    def parse(self, s):
        return s.split(",") if s else []
