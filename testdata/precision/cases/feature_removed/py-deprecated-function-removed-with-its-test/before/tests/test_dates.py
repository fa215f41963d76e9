import datetime

import pytest

from pkg.dates import parse_date, parse_legacy_date


def test_parse_date():
    assert parse_date("2024-02-29") == datetime.date(2024, 2, 29)


def test_parse_legacy_date():
    with pytest.warns(DeprecationWarning):
        assert parse_legacy_date("29/02/2024") == datetime.date(2024, 2, 29)
