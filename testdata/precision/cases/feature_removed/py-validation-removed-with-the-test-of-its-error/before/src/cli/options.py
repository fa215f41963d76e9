class Option:
    def __init__(self, name, is_flag=False, multiple=False, count=False):
        if is_flag and multiple:
            raise TypeError("'multiple' is not valid with 'is_flag', use 'count'.")
        if count and multiple:
            raise TypeError("'count' is not valid with 'multiple'.")
        self.name = name
        self.is_flag = is_flag
        self.multiple = multiple
