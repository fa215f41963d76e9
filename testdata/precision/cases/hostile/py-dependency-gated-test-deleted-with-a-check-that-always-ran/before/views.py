def render(name):
    return "<p>" + name + "</p>"
