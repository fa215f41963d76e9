from mylib import f

x: int = f()
