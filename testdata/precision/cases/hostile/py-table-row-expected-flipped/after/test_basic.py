import pytest

from mylib import UNSET
from mylib import parse_switch


@pytest.mark.parametrize(
    ("args", "default", "expect"),
    [
        (["--on"], True, True),
        (["--on"], False, True),
        (["--on"], UNSET, True),
        (["--off"], True, False),
        (["--off"], False, True),
        (["--off"], UNSET, False),
    ],
)
def test_boolean_switch(args, default, expect):
    assert parse_switch(args, default=default) is expect
