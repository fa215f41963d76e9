import pytest

import mylib


def test_explicit_instance_paths(tmp_path):
    with pytest.raises(Exception):
        mylib.App(instance_path="instance")

    app = mylib.App(instance_path=str(tmp_path))
    assert app.instance_path == str(tmp_path)
