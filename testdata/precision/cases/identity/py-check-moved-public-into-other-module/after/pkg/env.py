def without(env, name):
    return [kv for kv in env if not kv.startswith(name + "=")]
