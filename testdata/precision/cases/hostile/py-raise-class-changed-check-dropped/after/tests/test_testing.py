from pkg.testing import invoke


def test_stderr():
    result = invoke(b"out\n", b"err\n", mix_stderr=False)
    assert result.stdout == "out\n"
    assert result.stderr == "err\n"

    result_mix = invoke(b"out\n", b"err\n")
    assert result_mix.stdout == "out\nerr\n"
