import datetime

from pkg.dates import parse_date


def test_parse_date():
    assert parse_date("2024-02-29") == datetime.date(2024, 2, 29)
