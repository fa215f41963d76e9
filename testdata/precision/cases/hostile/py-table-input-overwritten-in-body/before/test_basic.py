import pytest

from mylib import parse_switch


@pytest.mark.parametrize("default", [True, False])
@pytest.mark.parametrize(("args", "expect"), [(["--on"], True), (["--off"], False)])
def test_boolean_switch(default, args, expect):
    assert parse_switch(args, default=default) is expect
