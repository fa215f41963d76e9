def percent(x):
    if x < 0:
        raise ValueError("negative")
    if x > 100:
        raise ValueError("over 100")
    return x / 100
