def percent(x):
    if x > 100:
        raise ValueError("over 100")
    return x / 100
