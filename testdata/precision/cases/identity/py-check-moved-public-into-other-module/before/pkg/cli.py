def usage():
    return "usage: pkg"


def _without(env, name):
    return [kv for kv in env if not kv.startswith(name + "=")]
