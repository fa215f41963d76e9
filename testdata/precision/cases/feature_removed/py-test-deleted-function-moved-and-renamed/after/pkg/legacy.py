import datetime


def from_dmy(text):
    day, month, year = text.split("/")
    return datetime.date(int(year), int(day), int(month))
