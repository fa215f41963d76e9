import pytest

import mylib


def test_explicit_instance_paths(tmp_path):
    with pytest.raises(ValueError) as excinfo:
        mylib.App(instance_path="instance")
    assert "must be absolute" in str(excinfo.value)

    app = mylib.App(instance_path=str(tmp_path))
    assert app.instance_path == str(tmp_path)
